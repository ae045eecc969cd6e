// A failure a command has already reported on stderr: main() only returns its exit status.
#pragma once

namespace flashxxl::cli {

//! Thrown by a command that printed its own error (dsort prints on every MPI rank before MPI
//! ends, so that mpirun cannot stop a rank before it said why); main() returns exit_status.
struct reported_failure {
    int exit_status = 1;
};

} // namespace flashxxl::cli
