#include "cei_reader.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>

#include "attr_spec.hpp"
#include "attr_tokens.hpp"
#include "opencl_reader.hpp"
#include "read_context.hpp"
#include "requires_reader.hpp"
#include "significance_reader.hpp"
#include "type_classify.hpp"
#include "version_reader.hpp"

namespace cei::frontend {
namespace {

class Reader {
 public:
  Reader(clang::ASTContext& ctx, const std::string& header, model::Model& model, Diagnostics& diags)
      : rc_{ctx, header, diags}, sm_(ctx.getSourceManager()), model_(model), versions_(rc_) {}

  void run() {
    bool found = false;
    for (const clang::Decl* d : rc_.ctx.getTranslationUnitDecl()->decls()) found |= visit(d);
    if (!found && !rc_.diags.has_errors())
      rc_.diags.error({rc_.header, 1, 1}, "no [[cei::interface]] struct in this header");
  }

 private:
  // Top-level and namespace-scope declarations of the main file; returns whether an interface was
  // found.
  bool visit(const clang::Decl* d) {
    if (!sm_.isInMainFile(sm_.getFileLoc(d->getLocation()))) return false;
    if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(d)) {
      bool found = false;
      for (const clang::Decl* inner : ns->decls()) found |= visit(inner);
      return found;
    }
    const auto* rd = llvm::dyn_cast<clang::CXXRecordDecl>(d);
    if (!rd || !rd->isThisDeclarationADefinition()) return false;
    const auto raw = cei_attrs_in(rc_.ctx, rd->getBeginLoc(), rd->getLocation());
    if (validate_attrs(rc_, raw, AttrSpec::On::Interface, "a struct").empty()) return false;
    read_interface(*rd);
    return true;
  }

  void read_interface(const clang::CXXRecordDecl& rd) {
    clang::SourceLocation prev_end = rd.getBraceRange().getBegin();
    for (const clang::Decl* member : rd.decls()) {
      if (member->isImplicit()) continue;
      const clang::SourceLocation name_loc = member->getLocation();
      const auto raw = cei_attrs_in(rc_.ctx, prev_end, name_loc);
      prev_end = member->getEndLoc();
      const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(member);
      if (!method || llvm::isa<clang::CXXConstructorDecl>(method) ||
          llvm::isa<clang::CXXDestructorDecl>(method) || method->isOverloadedOperator()) {
        if (!raw.empty())
          rc_.diags.error(rc_.loc(raw[0].loc),
                          "'cei::" + raw[0].name +
                              "' applies to member functions of a cei::interface "
                              "struct; this declaration is not one");
        continue;
      }
      read_ce(rd, *method, raw,
              validate_attrs(rc_, raw, AttrSpec::On::Function, "a member function"));
    }
  }

  void read_ce(const clang::CXXRecordDecl& rd, const clang::CXXMethodDecl& m,
               const std::vector<RawAttr>& raw, const std::vector<ReadAttr>& attrs) {
    model::CoreElement ce;
    ce.interface_name = rd.getQualifiedNameAsString();
    ce.name = m.getNameAsString();
    ce.is_static = m.isStatic();
    ce.loc = rc_.loc(m.getLocation());
    const Classified result = classify(m.getReturnType(), rc_.ctx);
    ce.result = result.type;
    if (!result.error.empty())
      rc_.diags.error(rc_.loc(m.getReturnTypeSourceRange().getBegin()),
                      "result of CE '" + ce.name + "': " + result.error);
    read_params(m, ce);

    const ReadAttr* opencl[2] = {nullptr, nullptr};  // accurate, approximate
    const ReadAttr* significance = nullptr;
    for (const ReadAttr& a : attrs) {
      const std::string& name = a.raw->name;
      if (name == "method" || name == "approximate") {
        versions_.read(m, ce, a, name == "approximate");
      } else if (name == "opencl") {
        const AttrArg* approx = a.arg("approximate");
        const ReadAttr*& slot = opencl[approx && approx->integer ? 1 : 0];
        if (slot) {
          rc_.diags.error(rc_.loc(a.raw->loc), "CE '" + ce.name + "' has more than one " +
                                                   (&slot == &opencl[1] ? "approximate " : "") +
                                                   "'cei::opencl' implementation");
          continue;
        }
        slot = &a;
      } else if (name == "on_failure") {
        if (ce.on_failure) {
          rc_.diags.error(rc_.loc(a.raw->loc),
                          "'cei::on_failure' given twice for CE '" + ce.name + "'");
          continue;
        }
        read_on_failure(ce, a);
      } else if (name == "significance") {
        if (significance) {
          rc_.diags.error(rc_.loc(a.raw->loc),
                          "'cei::significance' given twice for CE '" + ce.name + "'");
          continue;
        }
        significance = &a;
        read_significance(rc_, ce, a);
      } else if (name == "requires") {
        read_requires(rc_, ce, a);
      }
    }
    if (opencl[0]) ce.opencl = read_opencl(rc_, ce, *opencl[0]);
    if (opencl[1]) ce.opencl_approximate = read_opencl(rc_, ce, *opencl[1]);
    check_approximations(ce, raw, opencl[1]);
    // A rejected attribute has been reported already (it may have been meant as the version).
    if (raw.size() == attrs.size() && !has_attr(raw, "method") && !has_attr(raw, "opencl") &&
        !has_attr(raw, "approximate"))
      rc_.diags.error(ce.loc, "CE '" + ce.name +
                                  "' has no implementation: add [[cei::method(declaring_class = "
                                  "\"...\")]] or [[cei::opencl(...)]]");
    for (const auto& other : model_.ces)
      if (other.interface_name == ce.interface_name && other.name == ce.name) {
        rc_.diags.error(ce.loc, "CE '" + ce.name + "' is declared twice in '" +
                                    ce.interface_name + "' (first at line " +
                                    std::to_string(other.loc.line) +
                                    "): a CE's name is its native function's, and the registry "
                                    "knows a CE by its name, so overloads cannot both be CEs; "
                                    "give this one (and its native function) another name");
        return;
      }
    model_.ces.push_back(std::move(ce));
  }

  // An approximation stands in for an accurate version, which the program as written (its -seq
  // twin) and every significant task run: there must be one.
  void check_approximations(const model::CoreElement& ce, const std::vector<RawAttr>& raw,
                            const ReadAttr* opencl_approximate) {
    const bool accurate_native = std::any_of(ce.versions.begin(), ce.versions.end(),
                                             [](const auto& v) { return !v.approximate; });
    if (accurate_native || ce.opencl) return;
    const RawAttr* approx = opencl_approximate ? opencl_approximate->raw : nullptr;
    for (const auto& r : raw)
      if (r.name == "approximate" && !approx) approx = &r;
    // An accurate [[cei::method]] written but refused has been reported already.
    if (approx && !has_attr(raw, "method"))
      rc_.diags.error(rc_.loc(approx->loc),
                      "CE '" + ce.name +
                          "' has an approximate version but no accurate one: add "
                          "[[cei::method(declaring_class = \"...\")]] or [[cei::opencl(...)]] "
                          "(the program as written, and every task whose result matters, run "
                          "the accurate version)");
  }

  static bool has_attr(const std::vector<RawAttr>& attrs, const char* name) {
    for (const auto& a : attrs)
      if (a.name == name) return true;
    return false;
  }

  void read_params(const clang::CXXMethodDecl& m, model::CoreElement& ce) {
    clang::SourceLocation prev_end = m.getLocation();
    for (const clang::ParmVarDecl* p : m.parameters()) {
      model::Param param;
      param.name = p->getNameAsString();
      param.loc = rc_.loc(p->getLocation());
      const clang::QualType t = p->getType();
      param.is_reference = t->isReferenceType();
      param.is_const = t.getNonReferenceType().isConstQualified();
      const Classified c = classify(t, rc_.ctx);
      param.type = c.type;
      const std::string what =
          param.name.empty() ? "a parameter" : "parameter '" + param.name + "'";
      if (!c.error.empty())
        rc_.diags.error(param.loc, what + " of CE '" + ce.name + "': " + c.error);

      const auto raw = cei_attrs_in(rc_.ctx, prev_end, p->getLocation());
      const auto attrs = validate_attrs(rc_, raw, AttrSpec::On::Parameter, "a parameter");
      prev_end = p->getEndLoc();
      const ReadAttr* dir = nullptr;
      for (const ReadAttr& a : attrs) {
        if (dir) {
          rc_.diags.error(rc_.loc(a.raw->loc),
                          what + " already has direction 'cei::" + dir->raw->name + "'");
          continue;
        }
        dir = &a;
      }
      if (dir && dir->raw->name != "in") {
        param.direction = dir->raw->name == "out" ? model::Direction::Out : model::Direction::InOut;
        if (!param.is_reference || param.is_const)
          rc_.diags.error(rc_.loc(dir->raw->loc),
                          "'cei::" + dir->raw->name + "' on " + what + ", which is " +
                              (param.is_reference ? "a const reference" : "passed by value") +
                              ": the CE could not write it back; take it by non-const reference");
      }
      ce.params.push_back(std::move(param));
    }
  }

  void read_on_failure(model::CoreElement& ce, const ReadAttr& a) {
    static const std::vector<std::string> policies = {"retry", "cancel_successors", "ignore",
                                                      "fail"};
    model::OnFailure f;
    f.policy = a.str("policy");
    if (const AttrArg* p = a.arg("policy");
        p && std::find(policies.begin(), policies.end(), f.policy) == policies.end())
      rc_.diags.error(rc_.arg_loc(a, *p), "unknown on_failure policy '" + f.policy +
                                              "'; valid policies are: " + join(policies));
    if (const AttrArg* r = a.arg("retries")) {
      if (r->integer < 0 || r->integer > 1000)
        rc_.diags.error(rc_.arg_loc(a, *r), "'retries' must be between 0 and 1000");
      f.retries = static_cast<int>(r->integer);
    }
    if (const AttrArg* t = a.arg("timeout_ms")) {
      if (t->integer <= 0) rc_.diags.error(rc_.arg_loc(a, *t), "'timeout_ms' must be positive");
      f.timeout_ms = static_cast<long>(t->integer);
    }
    ce.on_failure = f;
  }

  const ReadContext rc_;
  const clang::SourceManager& sm_;
  model::Model& model_;
  VersionReader versions_;
};

}  // namespace

void read_cei(clang::ASTContext& ctx, const std::string& header, model::Model& model,
              Diagnostics& diags) {
  Reader(ctx, header, model, diags).run();
}

}  // namespace cei::frontend
