#include "policies/random_policy.h"

#include "absl/strings/str_cat.h"

namespace strata {

namespace {
uint64_t SplitMix(uint64_t& x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

void Rng::Seed(uint64_t seed) {
  for (auto& v : s_) v = SplitMix(seed);
}

uint64_t Rng::Next() {
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

int RandomPolicy::Choose(const Game&, const Decision& d) {
  const int n = static_cast<int>(d.actions.size());
  if (n <= 1) return 0;
  if (d.actions[0].kind == ActionKind::kPass) {
    if (rng_.Unit() < pass_probability_) return 0;
    return 1 + static_cast<int>(rng_.Below(static_cast<uint32_t>(n - 1)));
  }
  return static_cast<int>(rng_.Below(static_cast<uint32_t>(n)));
}

std::string RandomPolicy::Name() const { return absl::StrCat("random:pass=", pass_probability_); }

}  // namespace strata
