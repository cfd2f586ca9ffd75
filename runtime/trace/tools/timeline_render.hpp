// Draws a Timeline as a Gantt chart PNG with cairo: a lane per worker/queue grouped by platform,
// tasks colored by CE (legend below), transfers in gray on their own lanes, a time axis with
// round ticks.
#pragma once

#include "timeline_model.hpp"

#include <string>

namespace cei::trace_tool {

struct RenderOptions {
  int width = 1600;
  int height = 0;  // 0: as tall as the lanes need
  std::string title;
};

struct ImageSize {
  int width, height;
};

// Throws std::runtime_error when the PNG cannot be written.
ImageSize render_png(const Timeline& tl, const RenderOptions& opt, const std::string& path);

}  // namespace cei::trace_tool
