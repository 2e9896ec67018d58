// The game's random generator: xoshiro256** (Blackman and Vigna), small,
// fast and well tested, seeded through splitmix64. Every game owns one, so
// a game depends only on its seed (DESIGN.md "Determinism").
#pragma once

#include <array>
#include <cstdint>

namespace strata {

class Rng {
 public:
  explicit Rng(uint64_t seed = 1) { Seed(seed); }
  void Seed(uint64_t seed) {
    for (auto& v : s_) v = SplitMix(seed);
  }
  uint64_t Next() {
    uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n).
  uint32_t Below(uint32_t n) { return static_cast<uint32_t>((Next() >> 32) * n >> 32); }
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // The seed of game `index` of a run: games are independent of each other
  // and of the order they are played in.
  // The whole state, to write a game down and restore it exactly (a scenario
  // that `strata fuzz --shrink` wrote goes on with the same generator).
  std::array<uint64_t, 4> state() const { return {s_[0], s_[1], s_[2], s_[3]}; }
  void set_state(const std::array<uint64_t, 4>& s) {
    for (int i = 0; i < 4; ++i) s_[i] = s[i];
  }
  static uint64_t GameSeed(uint64_t run_seed, uint64_t index) {
    uint64_t x = run_seed ^ (index * 0x9E3779B97F4A7C15ull);
    return SplitMix(x);
  }

 private:
  static uint64_t SplitMix(uint64_t& x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace strata
