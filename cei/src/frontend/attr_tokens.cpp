#include "attr_tokens.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <optional>

namespace cei::frontend {
namespace {

class AttrScanner {
 public:
  AttrScanner(const clang::ASTContext& ctx, clang::SourceLocation begin, clang::SourceLocation end)
      : sm_(ctx.getSourceManager()), lang_(ctx.getLangOpts()) {
    begin = sm_.getFileLoc(begin);
    end = sm_.getFileLoc(end);
    auto [fid, offset] = sm_.getDecomposedLoc(begin);
    fid_ = fid;
    end_offset_ = sm_.getFileID(end) == fid ? sm_.getFileOffset(end) : offset;
    buffer_ = sm_.getBufferData(fid);
    lexer_.emplace(sm_.getLocForStartOfFile(fid), lang_, buffer_.begin(), buffer_.begin() + offset,
                   buffer_.end());
    tok_.startToken();
    lexer_->LexFromRawLexer(tok_);
  }

  std::vector<RawAttr> scan() {
    std::vector<RawAttr> out;
    while (!done()) {
      if (tok_.is(clang::tok::l_square) && peek_is_l_square()) {
        next();
        next();
        attribute_list(out);
      } else {
        next();
      }
    }
    return out;
  }

 private:
  // Inside `[[`: `[using NS:] attr (, attr)* ]]`.
  void attribute_list(std::vector<RawAttr>& out) {
    std::string using_ns;
    if (tok_.is(clang::tok::raw_identifier) && tok_.getRawIdentifier() == "using") {
      next();
      if (tok_.is(clang::tok::raw_identifier)) using_ns = tok_.getRawIdentifier().str();
      next();
      if (tok_.is(clang::tok::colon)) next();
    }
    while (!done() && !tok_.is(clang::tok::r_square)) {
      if (tok_.is(clang::tok::comma)) {
        next();
        continue;
      }
      RawAttr a;
      a.loc = tok_.getLocation();
      std::string ns = using_ns;
      std::string name = tok_.is(clang::tok::raw_identifier) ? tok_.getRawIdentifier().str() : "";
      next();
      if (tok_.is(clang::tok::coloncolon)) {
        next();
        ns = name;
        name = tok_.is(clang::tok::raw_identifier) ? tok_.getRawIdentifier().str() : "";
        next();
      }
      if (tok_.is(clang::tok::l_paren)) {
        a.has_args = true;
        const unsigned open_end = offset_of(tok_) + tok_.getLength();
        int depth = 0;
        for (; !done(); next()) {
          if (tok_.is(clang::tok::l_paren)) ++depth;
          if (tok_.is(clang::tok::r_paren) && --depth == 0) break;
        }
        const unsigned close = done() ? end_offset_ : offset_of(tok_);
        a.args_text = buffer_.substr(open_end, close - open_end).str();
        a.args_loc = sm_.getLocForStartOfFile(fid_).getLocWithOffset(open_end);
        next();
      }
      if (ns == "cei") {
        a.name = name;
        out.push_back(std::move(a));
      }
    }
    next();  // ]
    next();  // ]
  }

  bool peek_is_l_square() const {
    const char* p = buffer_.begin() + offset_of(tok_) + 1;
    return p < buffer_.end() && *p == '[';
  }
  unsigned offset_of(const clang::Token& t) const { return sm_.getFileOffset(t.getLocation()); }
  bool done() const { return tok_.is(clang::tok::eof) || offset_of(tok_) >= end_offset_; }
  void next() {
    if (!tok_.is(clang::tok::eof)) lexer_->LexFromRawLexer(tok_);
  }

  const clang::SourceManager& sm_;
  const clang::LangOptions& lang_;
  clang::FileID fid_;
  unsigned end_offset_ = 0;
  llvm::StringRef buffer_;
  std::optional<clang::Lexer> lexer_;
  clang::Token tok_;
};

}  // namespace

std::vector<RawAttr> cei_attrs_in(const clang::ASTContext& ctx, clang::SourceLocation begin,
                                  clang::SourceLocation end) {
  if (begin.isInvalid() || end.isInvalid()) return {};
  return AttrScanner(ctx, begin, end).scan();
}

}  // namespace cei::frontend
