// Test helper: a unique scratch directory under /tmp, removed with everything in it at scope exit.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace flashxxl::testing {

//! Creates /tmp/flashxxl-graph-XXXXXX; removes it recursively in the destructor.
class temp_dir {
public:
    temp_dir() {
        std::string tmpl = "/tmp/flashxxl-graph-XXXXXX";
        if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
        path_ = tmpl;
    }
    temp_dir(const temp_dir&) = delete;
    temp_dir& operator=(const temp_dir&) = delete;
    ~temp_dir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    //! dir/name.
    std::string file(const std::string& name) const { return (path_ / name).string(); }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

} // namespace flashxxl::testing
