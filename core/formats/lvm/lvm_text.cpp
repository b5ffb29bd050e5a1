// SPDX-License-Identifier: MIT
#include "lvm_text.h"

namespace asc::lvm {

namespace {

constexpr int kMaxDepth = 16;
constexpr size_t kMaxListItems = 1'000'000;

bool isNameChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-' || c == '+';
}

class Parser {
public:
    Parser(QByteArrayView text, const QString &where)
        : text_(text),
          where_(where)
    {
    }

    Result<void> section(Section &into, int depth, bool top)
    {
        if (depth > kMaxDepth)
            return fail(QStringLiteral("sections nested too deeply"));
        for (;;) {
            skipSpace();
            if (atEnd()) {
                if (top)
                    return {};
                return fail(QStringLiteral("a section is not closed"));
            }
            if (peek() == '}') {
                if (top)
                    return fail(QStringLiteral("'}' without a section"));
                ++pos_;
                return {};
            }
            if (peek() == '\0' && top)
                return {}; // the metadata area pads the text with NULs
            const QByteArray name = readName();
            if (name.isEmpty())
                return fail(QStringLiteral("expected a name, found '%1'").arg(QLatin1Char(peek())));
            skipSpace();
            if (peek() == '{') {
                ++pos_;
                auto child = std::make_unique<Section>();
                if (auto ok = section(*child, depth + 1, false); !ok)
                    return ok;
                into.sections.emplace_back(name, std::move(child));
            } else if (peek() == '=') {
                ++pos_;
                skipSpace();
                auto v = value(depth);
                if (!v)
                    return std::move(v).error();
                into.values[name] = std::move(v).value();
            } else {
                return fail(QStringLiteral("expected '=' or '{' after '%1'").arg(QString::fromUtf8(name)));
            }
        }
    }

private:
    Result<Value> value(int depth)
    {
        Value v;
        if (peek() == '[') {
            ++pos_;
            v.isList = true;
            for (;;) {
                skipSpace();
                if (peek() == ']') {
                    ++pos_;
                    return v;
                }
                if (atEnd())
                    return fail(QStringLiteral("a list is not closed"));
                if (v.list.size() >= kMaxListItems)
                    return fail(QStringLiteral("a list is too long"));
                if (depth > kMaxDepth)
                    return fail(QStringLiteral("lists nested too deeply"));
                auto item = value(depth + 1);
                if (!item)
                    return item;
                v.list.push_back(std::move(item).value());
                skipSpace();
                if (peek() == ',')
                    ++pos_;
            }
        }
        if (peek() == '"') {
            ++pos_;
            QByteArray s;
            while (!atEnd() && peek() != '"') {
                if (peek() == '\\' && pos_ + 1 < text_.size())
                    ++pos_;
                s += peek();
                ++pos_;
            }
            if (atEnd())
                return fail(QStringLiteral("a string is not closed"));
            ++pos_;
            v.scalar = s;
            return v;
        }
        const qsizetype start = pos_;
        if (peek() == '-' || peek() == '+')
            ++pos_;
        while (!atEnd() && ((peek() >= '0' && peek() <= '9') || peek() == '.'))
            ++pos_;
        if (pos_ == start)
            return fail(QStringLiteral("expected a value"));
        bool ok = false;
        const QByteArray digits = text_.sliced(start, pos_ - start).toByteArray();
        const qlonglong n = digits.toLongLong(&ok);
        v.scalar = ok ? int64_t(n) : int64_t(digits.toDouble());
        return v;
    }

    QByteArray readName()
    {
        const qsizetype start = pos_;
        while (!atEnd() && isNameChar(peek()))
            ++pos_;
        return text_.sliced(start, pos_ - start).toByteArray();
    }

    void skipSpace()
    {
        while (!atEnd()) {
            const char c = peek();
            if (c == '#') {
                while (!atEnd() && peek() != '\n')
                    ++pos_;
            } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                if (c == '\n')
                    ++line_;
                ++pos_;
            } else {
                return;
            }
        }
    }

    bool atEnd() const { return pos_ >= text_.size(); }
    char peek() const { return atEnd() ? '\0' : text_[pos_]; }
    Error fail(const QString &message) const
    {
        return Error::format(where_, std::nullopt, QStringLiteral("LVM metadata line %1: %2").arg(line_).arg(message));
    }

    QByteArrayView text_;
    QString where_;
    qsizetype pos_ = 0;
    int line_ = 1;
};

} // namespace

const Section *Section::section(QByteArrayView name) const
{
    for (const auto &[n, s] : sections)
        if (n == name)
            return s.get();
    return nullptr;
}

const Value *Section::value(QByteArrayView name) const
{
    auto it = values.find(name.toByteArray());
    return it == values.end() ? nullptr : &it->second;
}

int64_t Section::number(QByteArrayView name, int64_t fallback) const
{
    const Value *v = value(name);
    return v && v->isNumber() ? v->number() : fallback;
}

QByteArray Section::string(QByteArrayView name) const
{
    const Value *v = value(name);
    return v ? v->string() : QByteArray();
}

std::vector<QByteArray> Section::strings(QByteArrayView name) const
{
    std::vector<QByteArray> out;
    if (const Value *v = value(name); v && v->isList)
        for (const Value &item : v->list)
            if (item.isString())
                out.push_back(item.string());
    return out;
}

Result<Section> parseText(QByteArrayView text, const QString &where)
{
    Section top;
    Parser parser(text, where);
    if (auto ok = parser.section(top, 0, true); !ok)
        return std::move(ok).error();
    return top;
}

} // namespace asc::lvm
