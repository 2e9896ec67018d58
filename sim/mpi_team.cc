// MPI for RunStudy's StudyTeam: a gather of every rank's blocks at rank 0
// and a broadcast of rank 0's decision, the two collectives a study round
// needs (sim/runner.cc says what goes in them). Only the main thread calls
// MPI (MPI_THREAD_FUNNELED); the TBB workers inside each rank never do.
#include "sim/mpi_team.h"

#include <cstdlib>

#ifdef STRATA_MPI
#include <mpi.h>
#endif

namespace strata {

// Set by Open MPI's mpirun, by PMIx (Open MPI 5, srun --mpi=pmix) and by
// PMI-2 launchers (srun --mpi=pmi2).
bool LaunchedByMpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"})
    if (std::getenv(name)) return true;
  return false;
}

int MpiLaunchSize() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char* v = std::getenv(name)) return std::atoi(v);
  return 0;
}

#ifdef STRATA_MPI
namespace {

class MpiTeam : public StudyTeam {
 public:
  MpiTeam() {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  ~MpiTeam() override { MPI_Finalize(); }
  int rank() const override { return rank_; }
  int size() const override { return size_; }

  std::vector<std::string> Gather(const std::string& mine) override {
    const long long length = static_cast<long long>(mine.size());
    std::vector<long long> lengths(rank_ == 0 ? size_ : 0);
    MPI_Gather(&length, 1, MPI_LONG_LONG, lengths.data(), 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    std::vector<int> counts(lengths.size()), offsets(lengths.size());
    long long all = 0;
    for (size_t r = 0; r < lengths.size(); ++r) {
      counts[r] = static_cast<int>(lengths[r]);
      offsets[r] = static_cast<int>(all);
      all += lengths[r];
    }
    std::string joined(static_cast<size_t>(all), '\0');
    MPI_Gatherv(mine.data(), static_cast<int>(mine.size()), MPI_BYTE, joined.data(), counts.data(),
                offsets.data(), MPI_BYTE, 0, MPI_COMM_WORLD);
    std::vector<std::string> out;
    for (size_t r = 0; r < lengths.size(); ++r)
      out.push_back(joined.substr(static_cast<size_t>(offsets[r]), static_cast<size_t>(counts[r])));
    return out;
  }

  void Broadcast(std::string& data) override {
    long long length = static_cast<long long>(data.size());
    MPI_Bcast(&length, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    data.resize(static_cast<size_t>(length));
    MPI_Bcast(data.data(), static_cast<int>(length), MPI_BYTE, 0, MPI_COMM_WORLD);
  }

  bool Any(bool mine) override {
    int in = mine ? 1 : 0, out = 0;
    MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    return out != 0;
  }

 private:
  int rank_ = 0, size_ = 1;
};

}  // namespace

std::unique_ptr<StudyTeam> JoinMpiJob() {
  if (!LaunchedByMpi()) return nullptr;
  return std::make_unique<MpiTeam>();
}

bool BuiltWithMpi() {
  return true;
}

#else

std::unique_ptr<StudyTeam> JoinMpiJob() {
  return nullptr;
}

bool BuiltWithMpi() {
  return false;
}

#endif

}  // namespace strata
