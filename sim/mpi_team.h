// The ranks of an MPI job (`mpirun -np K strata sim ...`) as the StudyTeam
// that RunStudy plays a study with (sim/runner.h): Open MPI does the
// messaging, strata only says what is sent. Built in with the CMake option
// STRATA_MPI; without it, or when the process was not started by an MPI
// launcher, there is no team and strata plays alone.
#pragma once

#include <memory>

#include "sim/runner.h"

namespace strata {

// The job's team, with MPI initialised, if this process is one of an MPI
// job's ranks (an MPI launcher's environment: mpirun, srun); null
// otherwise. MPI is finalised when the team is destroyed.
std::unique_ptr<StudyTeam> JoinMpiJob();

// Whether this strata was built with MPI (STRATA_MPI).
bool BuiltWithMpi();
// Whether an MPI launcher started this process, and the ranks it says the
// job has (0 when it does not say): a strata built without MPI refuses a
// job of several ranks, each of which would play the whole study.
bool LaunchedByMpi();
int MpiLaunchSize();

}  // namespace strata
