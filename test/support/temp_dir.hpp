// Test helper: a unique scratch directory under /tmp, removed with everything in it at scope exit.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <stdexcept>
#include <string>

namespace flashxxl::testing {

//! Creates PARENT/flashxxl-test-XXXXXX (PARENT /tmp unless given); removes it recursively in
//! the destructor. Tests of O_DIRECT files pass "." (the build tree is on a disk; /tmp may be
//! tmpfs, which characterize's file targets refuse).
class temp_dir {
public:
    explicit temp_dir(const std::string& parent = "/tmp") {
        std::string tmpl = parent + "/flashxxl-test-XXXXXX";
        if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed under '" + parent + "'");
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
    std::string operator/(const std::string& name) const { return file(name); }
    //! Entries in the directory (temporary files left behind show up here).
    int entries() const {
        return int(
            std::distance(std::filesystem::directory_iterator(path_), std::filesystem::directory_iterator()));
    }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

} // namespace flashxxl::testing
