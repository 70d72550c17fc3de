#pragma once
// An RFC 4180 reader for the tests, written apart from the writer (io::CsvField) so that a test
// of the CSV the programs write does not read it back with the code that wrote it. A row ends
// at a line break outside quotes; a quoted field may hold anything, a doubled quote standing
// for one. Anything else (a quote inside a plain field, text after a closing quote, a quote
// left open) is malformed: rows() then returns nothing and says why.
#include <string>
#include <string_view>
#include <vector>

namespace immap::test {

class CsvReader {
public:
    using Row = std::vector<std::string>;

    static std::vector<Row> rows(std::string_view text, std::string* why = nullptr) {
        std::vector<Row> out;
        Row row;
        std::string field;
        enum { Start, Plain, Quoted, QuoteInQuoted } state = Start;
        auto fail = [&](const char* reason) {
            if (why) *why = reason;
            return std::vector<Row>{};
        };
        auto endField = [&] {
            row.push_back(field);
            field.clear();
        };
        for (std::size_t i = 0; i < text.size(); ++i) {
            const char c = text[i];
            switch (state) {
                case Quoted:
                    if (c == '"')
                        state = QuoteInQuoted;
                    else
                        field += c;
                    continue;
                case QuoteInQuoted:
                    if (c == '"') {
                        field += '"';
                        state = Quoted;
                        continue;
                    }
                    if (c != ',' && c != '\n' && c != '\r')
                        return fail("text after a closing quote");
                    break;
                case Start:
                    if (c == '"') {
                        state = Quoted;
                        continue;
                    }
                    break;
                case Plain:
                    if (c == '"') return fail("a quote inside an unquoted field");
                    break;
            }
            if (c == ',') {
                endField();
                state = Start;
            } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
                continue;  // CRLF: the LF ends the row
            } else if (c == '\n') {
                endField();
                out.push_back(row);
                row.clear();
                state = Start;
            } else {
                field += c;
                state = Plain;
            }
        }
        if (state == Quoted) return fail("a quote left open");
        if (state != Start || !row.empty() || !field.empty()) {
            endField();
            out.push_back(row);
        }
        return out;
    }
};

}  // namespace immap::test
