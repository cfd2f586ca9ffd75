// cei-prof: prints the execution-time models of a profile (CEI_PROFILE=profile.json) and plots
// them, one PNG per CE version: measured points and the fitted curve of every platform, log-log.
//
//   cei-prof profile.json            # models only
//   cei-prof profile.json -o plots/  # and plots/MatmulCEI.multiply-matmul.png, ...
#include <cei/rt/decision/profile_store.hpp>

#include <cairo.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using cei::rt::ProfileModel;

// A model over sizes needs two of them: one size tells a time, not how it grows (the store's
// stand-in for forecasting other sizes is no measurement to show as a slope).
bool fitted(const ProfileModel& m) {
  return m.sizes.size() >= 2;
}

void print_fit(const ProfileModel& m) {
  if (!fitted(m)) {
    std::printf(", one size measured: no model over sizes (it needs runs at two sizes)");
    return;
  }
  std::printf(", fit %s", cei::rt::to_string(m.fit.kind));
  switch (m.fit.kind) {
    case cei::rt::FitKind::Linear:
      std::printf(" t = %.6g + %.6g*size", m.fit.a, m.fit.b);
      break;
    case cei::rt::FitKind::Power:
      std::printf(" t = %.6g*size^%.4f", m.fit.a, m.fit.b);
      break;
    case cei::rt::FitKind::Proportional:
      std::printf(" t = %.6g*size", m.fit.a);
      break;
    case cei::rt::FitKind::None:
      break;
  }
  std::printf(" (rms relative error %.3g)", m.fit.rms_rel_error);
}

void print_models(const std::vector<ProfileModel>& models) {
  for (const auto& m : models) {
    std::uint64_t runs = 0;
    for (const auto& [size, s] : m.sizes) runs += s.runs;
    std::printf("%s [%s] on %s: %zu size%s, %llu runs", m.key.ce.c_str(), m.key.impl.c_str(),
                m.key.platform.c_str(), m.sizes.size(), m.sizes.size() == 1 ? "" : "s",
                static_cast<unsigned long long>(runs));
    print_fit(m);
    std::printf("\n  %14s %6s %12s %12s %12s\n", "bytes", "runs", "mean_s", "stddev_s",
                fitted(m) ? "fit_s" : "");
    for (const auto& [size, s] : m.sizes) {
      const double sd = s.runs > 1 ? std::sqrt(s.m2 / static_cast<double>(s.runs - 1)) : 0;
      std::printf("  %14.0f %6llu %12.6g %12.3g", size, static_cast<unsigned long long>(s.runs),
                  s.mean_s, sd);
      fitted(m) ? std::printf(" %12.6g\n", m.fit(size)) : std::printf("\n");
    }
  }
}

struct Axis {
  double lo, hi;  // log10 range
  double px0, px1;
  double map(double v) const { return px0 + (std::log10(v) - lo) / (hi - lo) * (px1 - px0); }
};

Axis log_axis(double min, double max, double px0, double px1) {
  double lo = std::floor(std::log10(min)), hi = std::ceil(std::log10(max));
  if (hi <= lo) hi = lo + 1;
  return {lo, hi, px0, px1};
}

void plot(const std::string& title, const std::vector<const ProfileModel*>& curves,
          const std::filesystem::path& file) {
  constexpr int W = 800, H = 560, L = 80, R = 190, T = 50, B = 60;
  double xmin = INFINITY, xmax = 0, ymin = INFINITY, ymax = 0;
  for (const auto* m : curves)
    for (const auto& [x, s] : m->sizes) {
      if (x <= 0 || s.mean_s <= 0) continue;
      xmin = std::min(xmin, x), xmax = std::max(xmax, x);
      ymin = std::min(ymin, s.mean_s), ymax = std::max(ymax, s.mean_s);
    }
  if (!(xmax > 0)) return;  // nothing positive to draw on log axes
  Axis ax = log_axis(xmin, xmax, L, W - R), ay = log_axis(ymin, ymax, H - B, T);

  cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
  cairo_t* cr = cairo_create(surface);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);

  // Grid and decade labels.
  cairo_set_font_size(cr, 11);
  cairo_set_line_width(cr, 1);
  char label[64];
  for (double e = ax.lo; e <= ax.hi; ++e) {
    double x = ax.map(std::pow(10, e));
    cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
    cairo_move_to(cr, x, T), cairo_line_to(cr, x, H - B), cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    std::snprintf(label, sizeof label, "1e%.0f", e);
    cairo_move_to(cr, x - 12, H - B + 16), cairo_show_text(cr, label);
  }
  for (double e = ay.lo; e <= ay.hi; ++e) {
    double y = ay.map(std::pow(10, e));
    cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
    cairo_move_to(cr, L, y), cairo_line_to(cr, W - R, y), cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    std::snprintf(label, sizeof label, "1e%.0f", e);
    cairo_move_to(cr, L - 40, y + 4), cairo_show_text(cr, label);
  }
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_rectangle(cr, L, T, W - R - L, H - B - T), cairo_stroke(cr);
  cairo_set_font_size(cr, 13);
  cairo_move_to(cr, (L + W - R) / 2.0 - 60, H - 18), cairo_show_text(cr, "input size (bytes)");
  cairo_move_to(cr, 10, T - 12), cairo_show_text(cr, "execution time (s)");
  cairo_set_font_size(cr, 15);
  cairo_move_to(cr, L, 22), cairo_show_text(cr, title.c_str());

  static const double colors[][3] = {{0.12, 0.47, 0.71}, {0.84, 0.15, 0.16}, {0.17, 0.63, 0.17},
                                     {0.58, 0.40, 0.74}, {1.00, 0.50, 0.05}, {0.55, 0.34, 0.29}};
  cairo_rectangle(cr, L, T, W - R - L, H - B - T);
  for (std::size_t i = 0; i < curves.size(); ++i) {
    const ProfileModel& m = *curves[i];
    const double* c = colors[i % 6];
    cairo_save(cr);
    cairo_rectangle(cr, L, T, W - R - L, H - B - T);
    cairo_clip(cr);
    cairo_set_source_rgb(cr, c[0], c[1], c[2]);
    // Fitted curve over the plotted decades (none from a single size).
    cairo_set_line_width(cr, 2);
    bool started = false;
    for (int k = 0; k <= (fitted(m) ? 200 : -1); ++k) {
      double x = std::pow(10, ax.lo + (ax.hi - ax.lo) * k / 200.0);
      double y = m.fit(x);
      if (!(y > 0)) {
        started = false;
        continue;
      }
      double px = ax.map(x), py = ay.map(y);
      started ? cairo_line_to(cr, px, py) : cairo_move_to(cr, px, py);
      started = true;
    }
    cairo_stroke(cr);
    for (const auto& [x, s] : m.sizes) {
      if (x <= 0 || s.mean_s <= 0) continue;
      cairo_arc(cr, ax.map(x), ay.map(s.mean_s), 4, 0, 2 * M_PI);
      cairo_fill(cr);
    }
    cairo_restore(cr);
    // Legend.
    cairo_set_source_rgb(cr, c[0], c[1], c[2]);
    double ly = T + 10 + 34.0 * static_cast<double>(i);
    cairo_arc(cr, W - R + 18, ly, 4, 0, 2 * M_PI), cairo_fill(cr);
    cairo_set_font_size(cr, 12);
    cairo_move_to(cr, W - R + 28, ly + 4), cairo_show_text(cr, m.key.platform.c_str());
    cairo_set_font_size(cr, 10);
    cairo_move_to(cr, W - R + 28, ly + 18);
    cairo_show_text(cr, fitted(m) ? cei::rt::to_string(m.fit.kind) : "one size");
  }
  const cairo_status_t written = cairo_surface_write_to_png(surface, file.c_str());
  cairo_destroy(cr);
  cairo_surface_destroy(surface);
  if (written != CAIRO_STATUS_SUCCESS)
    throw std::runtime_error("cannot write " + file.string() + ": " +
                             cairo_status_to_string(written));
}

std::string file_name(std::string s) {
  for (char& c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_')) c = '_';
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Prints and plots the execution-time models of a CEI profile"};
  std::string profile, out_dir;
  app.add_option("profile", profile, "profile JSON (what CEI_PROFILE saved)")->required();
  app.add_option("-o,--output", out_dir, "folder for one PNG per CE version");
  app.set_version_flag("--version", "cei-prof (CEI) " CEI_VERSION);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; a bad option or value exits 2 after naming it.
    return app.exit(e) == 0 ? 0 : 2;
  }

  cei::rt::ProfileStore store;
  try {
    store.load(profile);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cei-prof: %s\n", e.what());
    return 2;
  }
  const auto models = store.models();
  if (models.empty()) std::printf("%s: no history\n", profile.c_str());
  print_models(models);
  if (out_dir.empty()) return 0;

  try {
    std::filesystem::create_directories(out_dir);
    std::map<std::pair<std::string, std::string>, std::vector<const ProfileModel*>> by_version;
    for (const auto& m : models) by_version[{m.key.ce, m.key.impl}].push_back(&m);
    for (const auto& [key, curves] : by_version) {
      auto file = std::filesystem::path(out_dir) / file_name(key.first + "-" + key.second + ".png");
      plot(key.first + " [" + key.second + "]", curves, file);
      std::printf("wrote %s\n", file.c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cei-prof: %s: %s\n", out_dir.c_str(), e.what());
    return 2;
  }
  return 0;
}
