// A downstream program built against an installed flashxxl's component distributed_sort (MPI).
#include <cstdint>
#include <cstdio>
#include <functional>

#include <flashxxl/container/vector.hpp>
#include <flashxxl/distributed/distributed_sort.hpp>
#include <flashxxl/distributed/in_process_communicator.hpp>
#include <flashxxl/distributed/mpi_communicator.hpp> // mpi.h through the component's MPI::MPI_CXX
#include <flashxxl/machine/machine.hpp>

int main() {
    // MPI is linked (MPI_Get_version may be called before MPI_Init); the sort runs on one
    // in-process rank, so the program needs no mpirun.
    int version = 0, subversion = 0;
    MPI_Get_version(&version, &subversion);
    flashxxl::machine m = flashxxl::machine::from_preset("hybrid-2009");
    const flashxxl::block_sizes b(4096, 16384);
    flashxxl::vector<std::uint64_t> input(m, flashxxl::vector<std::uint64_t>::min_memory(b), b);
    flashxxl::vector<std::uint64_t> output(m, flashxxl::vector<std::uint64_t>::min_memory(b), b);
    {
        flashxxl::vector<std::uint64_t>::stream_writer w(input);
        for (std::uint64_t x = 100000; x > 0; --x)
            w.push(x * 7919 % 100003);
    }
    flashxxl::distributed::in_process_group group(1);
    flashxxl::distributed::in_process_communicator inner(group, 0);
    flashxxl::distributed::metered_communicator c(inner, flashxxl::distributed::network_model());
    flashxxl::distributed::distributed_sort_config config;
    config.memory = 1 << 20;
    config.blocks = b;
    flashxxl::distributed::distributed_sort(c, input, output, config, std::less<std::uint64_t>());
    std::uint64_t previous = 0, count = 0;
    bool ok = true;
    for (flashxxl::vector<std::uint64_t>::stream_reader r(output); !r.empty(); ++r, ++count) {
        ok = ok && *r >= previous;
        previous = *r;
    }
    ok = ok && count == 100000 && version >= 3;
    std::printf("dsort_consumer: %s (MPI %d.%d, %llu items)\n", ok ? "ok" : "FAILED", version, subversion,
                (unsigned long long)count);
    return ok ? 0 : 1;
}
