// inspect.hpp: `gpusizer inspect PATH` (what a GGUF / safetensors header says) and
// `gpusizer reconcile LOGFILE` (what an engine's startup log says), and the file-backed
// ByteSource the readers take at the edge.
#pragma once

#include <fstream>
#include <iosfwd>
#include <string>
#include <vector>

#include "gpusizer/model_file.hpp"

namespace gpusizer::cli {

// A ByteSource over a file on disk (std::ifstream); the core itself never opens files.
class FileSource : public ByteSource {
public:
    explicit FileSource(const std::string& path);  // throws Error(path) when it cannot be opened
    std::string name() const override { return path_; }
    std::optional<std::uint64_t> size() const override { return size_; }
    std::size_t read(std::uint64_t offset, void* out, std::size_t n) override;

private:
    std::string path_;
    std::ifstream in_;
    std::uint64_t size_ = 0;
};

// Opens files by path; nullptr when there is none.
SourceOpener file_opener();

// The `mmproj-*.gguf` beside a GGUF model file (in its folder), or "" when there is none; the
// first by name when there are several (`others` gets the rest).
std::string projector_beside(const std::string& gguf_path, std::vector<std::string>* others = nullptr);

// load_model_files through file_opener(), with the configuration's `mmproj` defaulting to the
// projector beside its `gguf` file.
void read_model_files(Config& c);

// `gpusizer inspect PATH [--json]` and `gpusizer reconcile LOGFILE [--json]`: args[0] is the
// command. Throw Error on bad input (the caller prints it); return the exit code.
int run_inspect(const std::vector<std::string>& args, std::ostream& out);
// reconcile also takes estimate's key flags (--model, --gguf, --hf-dir, --gpu, ...) and --assets;
// argv0 finds the catalog as the other commands do.
int run_reconcile(const std::vector<std::string>& args, std::ostream& out, const char* argv0);

}  // namespace gpusizer::cli
