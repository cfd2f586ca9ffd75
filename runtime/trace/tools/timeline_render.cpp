#include "timeline_render.hpp"

#include "../palette.hpp"

#include <cairo.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

namespace cei::trace_tool {
namespace {

constexpr double kPad = 16, kTitleH = 34, kAxisH = 34, kLegendRowH = 22, kLaneGap = 2;
constexpr double kFont = 12;

struct Rgb {
  double r, g, b;
};
Rgb rgb(std::uint32_t c) {
  return {(c >> 16 & 0xff) / 255.0, (c >> 8 & 0xff) / 255.0, (c & 0xff) / 255.0};
}
Rgb darker(Rgb c) {
  return {c.r * 0.6, c.g * 0.6, c.b * 0.6};
}
void set(cairo_t* cr, Rgb c) {
  cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

const Rgb kToDevice = rgb(0x4d4d4d), kToHost = rgb(0xa6a6a6), kFailed = rgb(0xd62728);

double text_width(cairo_t* cr, const std::string& s) {
  cairo_text_extents_t ext;
  cairo_text_extents(cr, s.c_str(), &ext);
  return ext.x_advance;
}

void font(cairo_t* cr, double size, bool bold = false) {
  cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                         bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, size);
}

// Text centered vertically on y.
void text(cairo_t* cr, double x, double y, const std::string& s) {
  cairo_font_extents_t fe;
  cairo_font_extents(cr, &fe);
  cairo_move_to(cr, x, y + (fe.ascent - fe.descent) / 2);
  cairo_show_text(cr, s.c_str());
}

// A round step (1, 2 or 5 times a power of ten) giving about `want` ticks over `span`.
double tick_step(double span, int want) {
  const double raw = span / want;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * mag >= raw) return m * mag;
  return 10 * mag;
}

struct TimeUnit {
  double per_us;
  const char* name;
};
TimeUnit unit_for(double span_us) {
  if (span_us < 2e3) return {1, "µs"};
  if (span_us < 2e6) return {1e-3, "ms"};
  return {1e-6, "s"};
}

std::string tick_label(double v) {
  std::string s = fmt::format("{:.3f}", v);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

struct Legend {
  std::vector<std::pair<std::string, Rgb>> items;
  std::vector<int> row_of;
  int rows = 0;
};

Legend layout_legend(cairo_t* cr, const Timeline& tl, double x0, double max_w) {
  Legend lg;
  for (std::size_t i = 0; i < tl.ces.size(); ++i)
    lg.items.push_back({tl.ces[i], rgb(cei::rt::trace::palette_color(i))});
  bool any_to_device = false, any_to_host = false, any_failed = false;
  for (const Lane& l : tl.lanes)
    for (const Slice& s : l.slices) {
      if (s.transfer) (s.to_device ? any_to_device : any_to_host) = true;
      any_failed |= s.failed;
    }
  if (any_to_device) lg.items.push_back({"transfer to device", kToDevice});
  if (any_to_host) lg.items.push_back({"transfer to host", kToHost});
  if (any_failed) lg.items.push_back({"failed (red outline)", kFailed});
  font(cr, kFont);
  double x = x0;
  int row = 0;
  for (const auto& [name, color] : lg.items) {
    const double w = 18 + text_width(cr, name) + 22;
    if (x > x0 && x + w > x0 + max_w) x = x0, ++row;
    lg.row_of.push_back(row);
    x += w;
  }
  lg.rows = lg.items.empty() ? 0 : row + 1;
  return lg;
}

}  // namespace

ImageSize render_png(const Timeline& tl, const RenderOptions& opt, const std::string& path) {
  // Measure text on a scratch surface first: the height depends on the legend's rows.
  auto scratch_s = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>(
      cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1), cairo_surface_destroy);
  auto scratch = std::unique_ptr<cairo_t, decltype(&cairo_destroy)>(cairo_create(scratch_s.get()),
                                                                    cairo_destroy);
  font(scratch.get(), kFont, true);
  double proc_w = 0, thread_w = 0;
  for (const Lane& l : tl.lanes) proc_w = std::max(proc_w, text_width(scratch.get(), l.process));
  font(scratch.get(), kFont);
  for (const Lane& l : tl.lanes) thread_w = std::max(thread_w, text_width(scratch.get(), l.thread));
  const double label_w = std::min(360.0, proc_w + thread_w + 24);
  const int W = std::max(opt.width, 400);
  const double plot_x0 = kPad + label_w, plot_w = W - plot_x0 - kPad - 10;
  const Legend legend = layout_legend(scratch.get(), tl, kPad, W - 2 * kPad);
  const double fixed = kTitleH + kAxisH + legend.rows * kLegendRowH + 2 * kPad;
  const double n = static_cast<double>(std::max<std::size_t>(tl.lanes.size(), 1));
  const double lane_h = opt.height > 0 ? std::clamp((opt.height - fixed) / n, 4.0, 60.0) : 26.0;
  const int H = opt.height > 0 ? opt.height : static_cast<int>(std::ceil(fixed + n * lane_h));

  auto surface = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>(
      cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H), cairo_surface_destroy);
  auto cr_owner = std::unique_ptr<cairo_t, decltype(&cairo_destroy)>(cairo_create(surface.get()),
                                                                     cairo_destroy);
  cairo_t* cr = cr_owner.get();
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);

  // Title.
  set(cr, {0.1, 0.1, 0.1});
  font(cr, 15, true);
  text(cr, kPad, kPad + 8, opt.title);
  const TimeUnit unit = unit_for(tl.end_us);
  font(cr, kFont);
  const std::string facts = fmt::format(
      "{} task{} · {} lane{} · spans {} {}{}", tl.tasks, tl.tasks == 1 ? "" : "s", tl.lanes.size(),
      tl.lanes.size() == 1 ? "" : "s", tick_label(tl.end_us * unit.per_us), unit.name,
      tl.policy.empty() ? "" : " · policy " + tl.policy);
  text(cr, W - kPad - text_width(cr, facts), kPad + 8, facts);

  const double plot_y0 = kPad + kTitleH, plot_h = n * lane_h;
  const double span_us = std::max(tl.end_us, 1.0);
  auto x_of = [&](double us) { return plot_x0 + us / span_us * plot_w; };

  // Platform bands (alternating shade) and their labels.
  for (std::size_t i = 0, band = 0; i < tl.lanes.size(); ++band) {
    std::size_t j = i;
    while (j < tl.lanes.size() && tl.lanes[j].pid == tl.lanes[i].pid) ++j;
    const double y = plot_y0 + i * lane_h, h = (j - i) * lane_h;
    cairo_rectangle(cr, kPad, y, W - 2 * kPad, h);
    cairo_set_source_rgb(cr, band % 2 ? 1.0 : 0.95, band % 2 ? 1.0 : 0.96, band % 2 ? 1.0 : 0.98);
    cairo_fill(cr);
    set(cr, {0.1, 0.1, 0.1});
    font(cr, kFont, true);
    text(cr, kPad + 4, y + std::min(h, lane_h) / 2, tl.lanes[i].process);
    cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, kPad, y + 0.5);
    cairo_line_to(cr, W - kPad, y + 0.5);
    cairo_stroke(cr);
    i = j;
  }
  font(cr, kFont);
  for (std::size_t i = 0; i < tl.lanes.size(); ++i) {
    const std::string& t = tl.lanes[i].thread;
    set(cr, {0.3, 0.3, 0.3});
    if (lane_h >= 9) text(cr, plot_x0 - 8 - text_width(cr, t), plot_y0 + (i + 0.5) * lane_h, t);
  }

  // Time axis: grid lines behind the slices, labels below.
  const double step = tick_step(span_us * unit.per_us, 10);
  font(cr, kFont - 1);
  for (double v = 0; v <= span_us * unit.per_us * (1 + 1e-9); v += step) {
    const double x = std::round(x_of(v / unit.per_us)) + 0.5;
    cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, x, plot_y0);
    cairo_line_to(cr, x, plot_y0 + plot_h + 4);
    cairo_stroke(cr);
    set(cr, {0.2, 0.2, 0.2});
    const std::string l = tick_label(v);
    text(cr, x - text_width(cr, l) / 2, plot_y0 + plot_h + 14, l);
  }
  set(cr, {0.2, 0.2, 0.2});
  const std::string axis = fmt::format("time ({})", unit.name);
  text(cr, plot_x0 + plot_w / 2 - text_width(cr, axis) / 2, plot_y0 + plot_h + 28, axis);

  // Slices.
  for (std::size_t i = 0; i < tl.lanes.size(); ++i) {
    const double y = plot_y0 + i * lane_h + kLaneGap;
    const double h = lane_h - 2 * kLaneGap;
    for (const Slice& s : tl.lanes[i].slices) {
      const double x0 = x_of(s.start_us);
      const double w = std::max(1.0, x_of(s.start_us + s.dur_us) - x0);
      Rgb fill;
      double sy = y, sh = h;
      if (s.transfer) {
        fill = s.to_device ? kToDevice : kToHost;
        sy = y + h * 0.2, sh = h * 0.6;  // thinner: transfers read as links, not work
      } else {
        const auto k = std::find(tl.ces.begin(), tl.ces.end(), s.name) - tl.ces.begin();
        fill = rgb(cei::rt::trace::palette_color(k));
      }
      cairo_rectangle(cr, x0, sy, w, sh);
      set(cr, fill);
      cairo_fill_preserve(cr);
      cairo_set_line_width(cr, s.failed ? 2.5 : 0.8);
      set(cr, s.failed ? kFailed : darker(fill));
      if (w >= 3)
        cairo_stroke(cr);
      else
        cairo_new_path(cr);
      if (!s.transfer && h >= 12) {
        font(cr, std::min(kFont - 1, h - 4));
        if (text_width(cr, s.name) + 6 <= w) {
          set(cr, {0.05, 0.05, 0.05});
          text(cr, x0 + 3, y + h / 2, s.name);
        }
      }
    }
  }
  cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
  cairo_set_line_width(cr, 1);
  cairo_move_to(cr, kPad, plot_y0 + plot_h + 0.5);
  cairo_line_to(cr, W - kPad, plot_y0 + plot_h + 0.5);
  cairo_stroke(cr);

  // Legend.
  font(cr, kFont);
  const double legend_y0 = plot_y0 + plot_h + kAxisH + 6;
  double x = kPad;
  int row = 0;
  for (std::size_t k = 0; k < legend.items.size(); ++k) {
    if (legend.row_of[k] != row) row = legend.row_of[k], x = kPad;
    const double y = legend_y0 + row * kLegendRowH;
    cairo_rectangle(cr, x, y, 14, 14);
    set(cr, legend.items[k].second);
    cairo_fill(cr);
    set(cr, {0.1, 0.1, 0.1});
    text(cr, x + 18, y + 7, legend.items[k].first);
    x += 18 + text_width(cr, legend.items[k].first) + 22;
  }

  cairo_surface_flush(surface.get());
  if (cairo_surface_write_to_png(surface.get(), path.c_str()) != CAIRO_STATUS_SUCCESS)
    throw std::runtime_error("cannot write " + path);
  return {W, H};
}

}  // namespace cei::trace_tool
