#include "trace/TraceReader.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "io/InputFile.h"
#include "trace/TraceError.h"
#include "trace/TraceEvent.h"

namespace immap::trace {

namespace {
constexpr std::size_t kChunk = 1 << 20;
constexpr std::size_t kMaxLine = 1 << 16;  // no event line comes near this; a header might
constexpr std::size_t kMaxHeader = 16 << 20;
// Streamed, so memory is bounded by the line and header caps whatever the size; the file cap
// (checked on the opened descriptor) only refuses what no run could have written.
constexpr std::uint64_t kMaxTraceBytes = std::uint64_t{64} << 30;
}  // namespace

TraceReader::TraceReader(const std::string& path) : path_(path) {
    io::InputFile in(path, kMaxTraceBytes, "a trace");
    file_ = in.releaseToStdio();
    if (!file_) throw TraceError(path, 0, in.reason());
    // The header: the first line, however long (within reason).
    std::string first;
    for (;;) {
        const std::size_t nl = buf_.find('\n', pos_);
        if (nl != std::string::npos) {
            first = buf_.substr(0, nl);
            pos_ = nl + 1;
            break;
        }
        if (buf_.size() > kMaxHeader) {
            std::fclose(file_);
            throw TraceError(path, 1, "the header line is longer than 16 MB");
        }
        if (!fill()) {
            std::fclose(file_);
            throw TraceError(path, 1, buf_.empty() ? "empty file" : "the header line is cut short");
        }
    }
    line_ = 1;
    consumed_ = pos_;
    try {
        header_ = TraceHeader::fromLine(first, path);
    } catch (...) {
        std::fclose(file_);
        file_ = nullptr;
        throw;
    }
}

TraceReader::~TraceReader() {
    if (file_) std::fclose(file_);
}

bool TraceReader::fill() {
    if (eof_) return false;
    buf_.erase(0, pos_);
    pos_ = 0;
    const std::size_t old = buf_.size();
    buf_.resize(old + kChunk);
    const std::size_t n = std::fread(buf_.data() + old, 1, kChunk, file_);
    buf_.resize(old + n);
    if (n == 0) eof_ = true;
    return n > 0;
}

void TraceReader::seek(std::uint64_t offset, std::uint64_t line, std::uint64_t events) {
    if (std::fseek(file_, static_cast<long>(offset), SEEK_SET) != 0)
        throw TraceError(path_, line, std::string("cannot seek: ") + std::strerror(errno));
    buf_.clear();
    pos_ = 0;
    eof_ = false;
    line_ = line;
    consumed_ = offset;
    events_ = events;
    complete_ = false;  // the end record, if any, is read again
    error_.clear();
    errorReason_.clear();
    errorLine_ = 0;
}

void TraceReader::cut(std::uint64_t line, const std::string& why) {
    char ms[32];
    std::snprintf(ms, sizeof ms, "%.3f", static_cast<double>(lastTime_) / 1e6);
    fail(line, "the recording ends early at line " + std::to_string(line) + " (" + why +
                   "); statistics cover its first " + ms + " ms");
}

void TraceReader::fail(std::uint64_t line, const std::string& reason) {
    errorLine_ = line;
    errorReason_ = reason;
    error_ = path_ + ":" + std::to_string(line) + ": " + reason;
}

bool TraceReader::next(sim::SimEvent& e) {
    if (!error_.empty()) return false;
    for (;;) {
        const char* begin = buf_.data() + pos_;
        const char* end = static_cast<const char*>(std::memchr(begin, '\n', buf_.size() - pos_));
        if (!end) {
            if (buf_.size() - pos_ > kMaxLine) {
                fail(line_ + 1, "line longer than 64 KB");
                return false;
            }
            if (fill()) continue;
            if (pos_ < buf_.size())
                cut(line_ + 1, "its last line is cut short, without a newline");
            else if (!complete_)
                cut(line_, "no end record after it: the run was stopped or the file cut");
            return false;
        }
        ++line_;
        const std::size_t len = static_cast<std::size_t>(end - begin);
        pos_ += len + 1;
        consumed_ += len + 1;
        if (len == 0) continue;  // blank lines are allowed
        if (complete_) {
            fail(line_, "a line after the end record (the recording ended at line " +
                            std::to_string(endLine_) + ")");
            return false;
        }
        std::int64_t endTime = 0;
        std::uint64_t counted = 0;
        switch (parseEndRecord(begin, end, endTime, counted)) {
            case EndRecord::Yes:
                if (counted != events_) {
                    fail(line_, "the end record counts " + std::to_string(counted) +
                                    " events but " + std::to_string(events_) +
                                    " came before it: lines are missing or added");
                    return false;
                }
                if (endTime < lastTime_) {
                    fail(line_, "the end record's time " + std::to_string(endTime) +
                                    " ns is before the last event's, " + std::to_string(lastTime_) +
                                    " ns");
                    return false;
                }
                complete_ = true;
                endLine_ = line_;
                continue;  // nothing may follow but blank lines
            case EndRecord::Malformed:
                fail(line_, "malformed end record (expected \"TIME en -1 -1 EVENTS\")");
                return false;
            case EndRecord::No:
                break;
        }
        std::string reason;
        if (!parseEvent(begin, end, header_, e, reason)) {
            fail(line_, reason);
            return false;
        }
        if (e.lock >= 0) e.file = header_.locks[static_cast<std::size_t>(e.lock)].file;
        ++events_;
        lastTime_ = std::max(lastTime_, e.time);
        return true;
    }
}

}  // namespace immap::trace
