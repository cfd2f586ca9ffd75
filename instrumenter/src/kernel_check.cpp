#include <cei/instrument/kernel_check.hpp>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Tooling/Tooling.h>

#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <type_traits>

namespace cei::instrument {
namespace {

using namespace clang;
using model::Direction;
using model::TypeKind;

// The OpenCL C type with the same representation as a CE's arithmetic element type on this host,
// which is where the runtime copies the bytes from. None for what OpenCL C lacks (long double,
// wchar_t, __int128, ...).
std::optional<std::string> opencl_type(const std::string& cpp) {
  const bool lp64 = sizeof(long) == 8;
  static const std::map<std::string, std::string> table = {
      {"float", "float"},
      {"double", "double"},
      {"char", std::is_signed_v<char> ? "char" : "uchar"},
      {"signed char", "char"},
      {"unsigned char", "uchar"},
      {"short", "short"},
      {"unsigned short", "ushort"},
      {"int", "int"},
      {"unsigned int", "uint"},
      {"long", lp64 ? "long" : "int"},
      {"unsigned long", lp64 ? "ulong" : "uint"},
      {"long long", "long"},
      {"unsigned long long", "ulong"}};
  auto it = table.find(cpp);
  if (it == table.end()) return std::nullopt;
  return it->second;
}

// The OpenCL C name of an arithmetic type in the kernel's AST (typedefs such as `uint` resolved),
// or empty for anything else (vectors, structs, pointers, half, bool).
std::string opencl_name(QualType t) {
  const auto* b = t.getCanonicalType()->getAs<BuiltinType>();
  if (!b) return "";
  switch (b->getKind()) {
    case BuiltinType::Float:
      return "float";
    case BuiltinType::Double:
      return "double";
    case BuiltinType::Char_S:  // plain `char`, signed in OpenCL C whatever the target
    case BuiltinType::Char_U:
    case BuiltinType::SChar:
      return "char";
    case BuiltinType::UChar:
      return "uchar";
    case BuiltinType::Short:
      return "short";
    case BuiltinType::UShort:
      return "ushort";
    case BuiltinType::Int:
      return "int";
    case BuiltinType::UInt:
      return "uint";
    case BuiltinType::Long:
      return "long";
    case BuiltinType::ULong:
      return "ulong";
    default:
      return "";
  }
}

// What the OpenCL platform passes as one kernel argument (platforms/opencl/src/launch.cpp).
struct Expected {
  std::string element;   // OpenCL C element type; empty when OpenCL C has none
  bool buffer = false;   // a cl_mem (`__global T*`) rather than the value itself
  bool written = false;  // the kernel writes it: out/inout parameters and the result
  std::string what;      // "CE parameter 'alpha'", "the result of CE 'scale'"
  std::string name;      // the CE parameter's name, the kernel's usual name for it
  std::string cpp;       // the CE's C++ type, with its direction when written
  std::string cpp_element;
  model::Location loc;

  std::string spelling() const {
    if (!buffer) return element;
    return std::string("__global ") + (written ? "" : "const ") + element + "*";
  }
};

std::vector<Expected> convention(const model::CoreElement& ce) {
  std::vector<Expected> out;
  for (const auto& p : ce.params) {
    Expected e;
    e.element = opencl_type(p.type.element).value_or("");
    // Scalar inputs travel by value (clSetKernelArg of the value); arrays and outputs in buffers.
    e.buffer = p.type.kind != TypeKind::Scalar || p.direction == Direction::Out;
    e.written = p.direction != Direction::In;
    e.what = "CE parameter '" + p.name + "'";
    e.name = p.name;
    e.cpp = p.type.spelling;
    if (p.direction == Direction::Out) e.cpp += " (out)";
    if (p.direction == Direction::InOut) e.cpp += " (inout)";
    e.cpp_element = p.type.element;
    e.loc = p.loc;
    out.push_back(std::move(e));
  }
  if (ce.result.kind != TypeKind::Void) {
    Expected e;
    e.element = opencl_type(ce.result.element).value_or("");
    e.buffer = e.written = true;
    e.what = "the result of CE '" + ce.name + "'";
    e.name = "result";
    e.cpp = ce.result.spelling;
    e.cpp_element = ce.result.element;
    e.loc = ce.loc;
    out.push_back(std::move(e));
  }
  return out;
}

std::string at(const model::Location& l) {
  return l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.column);
}

model::Location where(const SourceManager& sm, SourceLocation loc) {
  const PresumedLoc p = sm.getPresumedLoc(sm.getFileLoc(loc));
  if (p.isInvalid()) return {};
  return {p.getFilename(), p.getLine(), p.getColumn()};
}

// Clang's errors in a kernel file, kept with their locations: only those inside the checked
// kernel's signature are reported (errors in bodies are the OpenCL driver's to report, with the
// application's build options).
class ErrorsKept : public DiagnosticConsumer {
 public:
  void HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < DiagnosticsEngine::Error) return;
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    errors.emplace_back(info.getLocation(), text.str().str());
  }
  std::vector<std::pair<SourceLocation, std::string>> errors;
};

struct KernelFile {
  ErrorsKept diags;  // declared first: the AST's diagnostics engine points to it until it goes
  std::unique_ptr<ASTUnit> ast;
};

std::unique_ptr<KernelFile> parse_kernel_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return nullptr;
  std::ostringstream text;
  text << in.rdbuf();
  auto kf = std::make_unique<KernelFile>();
  // OpenCL C 1.2, the language the runtime builds kernels in when no -cl-std is given.
  const std::vector<std::string> args = {"-x", "cl", "-cl-std=CL1.2", "-resource-dir",
                                         CEI_CLANG_RESOURCE_DIR};
  kf->ast = tooling::buildASTFromCodeWithArgs(
      text.str(), args, path, "ceic", std::make_shared<PCHContainerOperations>(),
      tooling::getClangStripDependencyFileAdjuster(), tooling::FileContentMappings(), &kf->diags);
  return kf->ast ? std::move(kf) : nullptr;
}

const FunctionDecl* find_kernel(ASTContext& ctx, const std::string& name) {
  const FunctionDecl* found = nullptr;
  for (const Decl* d : ctx.getTranslationUnitDecl()->decls()) {
    const auto* fd = llvm::dyn_cast<FunctionDecl>(d);
    if (!fd || !fd->getIdentifier() || fd->getName() != name || !fd->hasAttr<OpenCLKernelAttr>())
      continue;
    if (fd->isThisDeclarationADefinition()) return fd;  // the one the runtime's driver calls
    found = fd;
  }
  return found;
}

class KernelChecker {
 public:
  KernelChecker(const model::CoreElement& ce, const model::OpenCL& cl, const KernelFile& kf,
                frontend::Diagnostics& diags)
      : ce_(ce),
        cl_(cl),
        kf_(kf),
        ctx_(kf.ast->getASTContext()),
        sm_(ctx_.getSourceManager()),
        diags_(diags),
        want_(convention(ce)) {}

  void run() {
    const FunctionDecl* fd = find_kernel(ctx_, cl_.name);
    if (!fd) {
      diags_.error(cl_.loc, "ceic: clang finds no kernel '" + cl_.name + "' in '" +
                                cl_.kernel_path +
                                "' (is it inside a disabled #if, or spelled by a macro?)");
      return;
    }
    kernel_ = where(sm_, fd->getLocation());
    if (!readable(*fd) || !representable()) return;
    const std::size_t n = fd->getNumParams();
    if (n != want_.size()) {
      diags_.error(kernel_, "ceic: kernel '" + cl_.name + "' takes " + count(n, "argument") +
                                " but CE '" + ce_.name + "' (" + at(ce_.loc) + ") passes " +
                                std::to_string(want_.size()) + ": " + passed());
      return expected_signature();
    }
    bool ok = true;
    for (std::size_t i = 0; i < n; ++i) ok &= argument(i, *fd->getParamDecl(i));
    if (!ok) expected_signature();
  }

 private:
  static std::string count(std::size_t n, const char* noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
  }

  std::string passed() const {
    std::string s = "its " + count(ce_.params.size(), "parameter");
    if (ce_.result.kind != TypeKind::Void)
      s += " and one trailing '" + want_.back().spelling() + "' that receives its result '" +
           ce_.result.spelling + "'";
    return s;
  }

  // The kernel's parameter list as clang reads it: its own errors there, then ours.
  bool readable(const FunctionDecl& fd) {
    const SourceLocation begin = sm_.getFileLoc(fd.getBeginLoc());
    const SourceLocation end =
        sm_.getFileLoc(fd.getBody() ? fd.getBody()->getBeginLoc() : fd.getEndLoc());
    bool broken = fd.isInvalidDecl();
    for (const ParmVarDecl* p : fd.parameters()) broken |= p->isInvalidDecl();
    for (const auto& [loc, text] : kf_.diags.errors) {
      const SourceLocation l = sm_.getFileLoc(loc);
      if (l.isInvalid() || !sm_.isPointWithin(l, begin, end)) continue;
      diags_.error(where(sm_, l), text);
      broken = true;
    }
    if (broken)
      diags_.error(kernel_, "ceic: kernel '" + cl_.name + "' cannot be checked against CE '" +
                                ce_.name + "' (" + at(ce_.loc) +
                                "): clang cannot read its parameter list as OpenCL C 1.2");
    return !broken;
  }

  // Every CE parameter has an OpenCL C counterpart the runtime can hand over.
  bool representable() {
    bool ok = true;
    for (const Expected& e : want_) {
      if (e.element.empty()) {
        diags_.error(e.loc, "ceic: " + e.what + " has element type '" + e.cpp_element +
                                "', which OpenCL C has no type for: kernel '" + cl_.name + "' (" +
                                at(kernel_) + ") cannot take it");
        ok = false;
      } else if (e.written && !e.buffer) {
        // launch.cpp passes every scalar input by value, so no buffer would carry the update.
        diags_.error(e.loc, "ceic: " + e.what + " is an inout scalar, which kernel '" + cl_.name +
                                "' (" + at(kernel_) +
                                ") cannot update: OpenCL kernels get scalar inputs by value "
                                "(make it 'out', or a cei::Vector of one element)");
        ok = false;
      }
    }
    return ok;
  }

  bool argument(std::size_t i, const ParmVarDecl& p) {
    const Expected& e = want_[i];
    // The parameter itself lives in __private: only the pointee's address space matters.
    const QualType t = ctx_.removeAddrSpaceQualType(p.getType());
    std::string why;
    if (!e.buffer) {
      if (t->isPointerType() || opencl_name(t) != e.element)
        why = "expected '" + e.spelling() + "'";
    } else if (!t->isPointerType()) {
      why = "expected '" + e.spelling() + "': the runtime passes a buffer";
    } else {
      const QualType pointee = t->getPointeeType();
      const LangAS space = pointee.getAddressSpace();
      const bool readable_space =
          space == LangAS::opencl_global || (!e.written && space == LangAS::opencl_constant);
      if (!readable_space || opencl_name(pointee) != e.element)
        why = "expected '" + e.spelling() + "'";
      else if (e.written && pointee.isConstQualified())
        why = "expected '" + e.spelling() + "': the kernel must write it";
    }
    if (why.empty()) return true;
    for (std::size_t j = 0; j < ce_.params.size(); ++j)
      if (j != i && p.getName() == ce_.params[j].name)
        why += "; the CE passes '" + ce_.params[j].name + "' as argument " + std::to_string(j) +
               " (are the parameters in another order?)";
    PrintingPolicy pp(ctx_.getLangOpts());
    diags_.error(where(sm_, p.getLocation().isValid() ? p.getLocation() : p.getBeginLoc()),
                 "ceic: kernel '" + cl_.name + "' argument " + std::to_string(i) + " '" +
                     p.getName().str() + "' is '" + t.getAsString(pp) + "' but " + e.what + " (" +
                     at(e.loc) + ") is '" + e.cpp + "': " + why);
    diags_.note(e.loc, "ceic: " + e.what + ", passed to kernel '" + cl_.name + "' as argument " +
                           std::to_string(i) + (e.buffer ? " in a buffer" : " by value"));
    return false;
  }

  void expected_signature() {
    std::string sig = "__kernel void " + cl_.name + "(";
    for (std::size_t i = 0; i < want_.size(); ++i)
      sig += (i ? ", " : "") + want_[i].spelling() + " " + want_[i].name;
    diags_.note(ce_.loc,
                "ceic: CE '" + ce_.name + "' declared here; the kernel it calls is " + sig + ")");
  }

  const model::CoreElement& ce_;
  const model::OpenCL& cl_;
  const KernelFile& kf_;
  ASTContext& ctx_;
  const SourceManager& sm_;
  frontend::Diagnostics& diags_;
  const std::vector<Expected> want_;
  model::Location kernel_;
};

}  // namespace

void check_kernels(const std::vector<model::Model>& models, frontend::Diagnostics& diags) {
  std::map<std::string, std::unique_ptr<KernelFile>> files;  // each file parsed once
  for (const auto& m : models)
    for (const auto& ce : m.ces)
      for (const auto* impl : {&ce.opencl, &ce.opencl_approximate}) {  // the same signature
        if (!*impl || !(*impl)->function.empty()) continue;  // a function: the compiler checks it
        const model::OpenCL& cl = **impl;
        auto [it, fresh] = files.try_emplace(cl.kernel_path);
        if (fresh) it->second = parse_kernel_file(cl.kernel_path);
        if (!it->second) {
          diags.error(cl.loc, "ceic: cannot read kernel file '" + cl.kernel_path + "' as OpenCL C");
          continue;
        }
        KernelChecker(ce, cl, *it->second, diags).run();
      }
}

}  // namespace cei::instrument
