#include "sim/game_log.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/strings.h"

namespace strata {

LogAnnotator::LogAnnotator(std::array<std::string, 2> seats, std::vector<std::string> header)
    : seats_(std::move(seats)), header_(std::move(header)) {}

void LogAnnotator::Note(const Game& g, std::string text) {
  notes_.emplace_back(g.log().size(), absl::StrCat("T", g.state().turn, " ",
                                                   S(PhaseName(g.state().phase)), ": ", text));
}

void LogAnnotator::Attachments(const Game& g) {
  const Objects& o = g.state().obj;
  if (attached_.size() < static_cast<size_t>(o.count)) attached_.resize(o.count, kNoObj);
  for (int i = 0; i < o.count; ++i) {
    const ObjId to = o.zone[i] == Zone::kBattlefield ? o.attached_to[i] : kNoObj;
    if (to != attached_[i] && to != kNoObj)
      Note(g,
           absl::StrCat(g.ObjectName(static_cast<ObjId>(i)), " is attached to ", g.ObjectName(to)));
    attached_[i] = to;
  }
}

void LogAnnotator::Before(const Game& g, const Decision& d, int chosen) {
  const GameState& s = g.state();
  Attachments(g);
  if (!hands_done_ && d.kind != DecisionKind::kMulligan && d.kind != DecisionKind::kBottom) {
    hands_done_ = true;
    // The hands as kept: the cards in hand now but those drawn since.
    for (Player p = 0; p < 2; ++p) {
      std::vector<ObjId> drawn;
      for (const LogEvent& e : g.log_events())
        if (e.kind == LogKind::kDraw && e.player == p) drawn.push_back(e.object);
      std::vector<std::string> cards;
      for (ObjId c : s.players[p].hand)
        if (std::find(drawn.begin(), drawn.end(), c) == drawn.end())
          cards.push_back(g.ObjectName(c));
      Note(g, absl::StrCat("opening hand of ", seats_[p], ", ", cards.size(),
                           " cards: ", absl::StrJoin(cards, ", ")));
    }
  }
  if (s.turn != last_turn_) {
    last_turn_ = s.turn;
    Note(g, absl::StrCat("life ", seats_[0], " ", s.players[0].life, ", ", seats_[1], " ",
                         s.players[1].life, "; hands ", s.players[0].hand.size(), " and ",
                         s.players[1].hand.size(), " cards; libraries ",
                         s.players[0].library.size(), " and ", s.players[1].library.size()));
  }
  if (d.kind == DecisionKind::kTarget && chosen >= 0 &&
      chosen < static_cast<int>(d.actions.size())) {
    const Action& a = d.actions[chosen];
    std::string target;
    if (a.kind == ActionKind::kTargetObject) target = g.ObjectName(a.object);
    if (a.kind == ActionKind::kTargetPlayer && a.value >= 0 && a.value < 2)
      target = seats_[a.value];
    if (!target.empty()) {
      const StackItem* item = g.Casting();
      std::string with;
      if (item && item->card != kNoObj)
        with = absl::StrCat(" with ", g.ObjectName(item->card));
      else if (item && item->source != kNoObj)
        with = absl::StrCat(" with an ability of ", g.ObjectName(item->source));
      Note(g, absl::StrCat(seats_[d.player], " targets ", target, with));
    }
  }
}

void LogAnnotator::End(const Game& g) {
  Attachments(g);
  const GameState& s = g.state();
  Note(g, absl::StrCat("game over: life ", seats_[0], " ", s.players[0].life, ", ", seats_[1], " ",
                       s.players[1].life));
}

std::vector<std::string> LogAnnotator::Lines(const Game& g) const {
  std::vector<std::string> out = header_;
  const std::vector<std::string>& log = g.log();
  size_t n = 0;
  for (size_t i = 0; i <= log.size(); ++i) {
    for (; n < notes_.size() && notes_[n].first <= i; ++n) out.push_back(notes_[n].second);
    if (i < log.size()) out.push_back(log[i]);
  }
  return out;
}

}  // namespace strata
