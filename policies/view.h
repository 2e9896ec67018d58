// What a player may see of a game (DESIGN.md "Policies"): everything public,
// their own hand, but not the opponent's hand nor the order of any library.
// Policies get a PlayerView, never the Game itself, unless they are
// declared omniscient (a test oracle, a cheating baseline).
#pragma once

#include <bit>
#include <optional>
#include <vector>

#include "engine/game.h"

namespace strata {

class PlayerView {
 public:
  PlayerView(const Game& game, Player me, bool omniscient = false)
      : game_(game), me_(me), omniscient_(omniscient) {}

  Player me() const { return me_; }
  bool omniscient() const { return omniscient_; }
  const CardDb& db() const { return game_.db(); }

  // Public information.
  int Life(Player p) const { return game_.state().players[p].life; }
  int HandSize(Player p) const { return static_cast<int>(game_.state().players[p].hand.size()); }
  int LibrarySize(Player p) const {
    return static_cast<int>(game_.state().players[p].library.size());
  }
  // The most cards a player may keep at the end of its turn (layer 8); -1:
  // no maximum.
  int MaxHandSize(Player p) const { return game_.Rules(p).max_hand_size; }
  // Mulligans taken this game (G-1): public, like the size of a hand.
  int Mulligans(Player p) const { return game_.mulligans(p); }
  const std::vector<ObjId>& Graveyard(Player p) const { return game_.state().players[p].graveyard; }
  // The objects on the battlefield, in object order; a view, not a copy
  // (policies ask for it many times a decision). It walks the state's bit
  // set of the zone, so it visits the members alone, in the order a walk
  // over every object would find them.
  class ObjectsIn {
   public:
    // Holds the rest of the word it is in: a step clears the bit it was
    // at and counts zeros to the next, without finding the word again.
    class Iterator {
     public:
      Iterator(const ObjBits& bits, int count, int word)
          : bits_(&bits), words_((count + 63) / 64), w_(word) {
        Load();
      }
      ObjId operator*() const { return static_cast<ObjId>(w_ * 64 + std::countr_zero(rest_)); }
      Iterator& operator++() {
        rest_ &= rest_ - 1;
        if (rest_ == 0) {
          ++w_;
          Load();
        }
        return *this;
      }
      // The end: every word walked (Load leaves w_ at words_ then).
      struct End {};
      bool operator!=(End) const { return w_ < words_; }

     private:
      // The first nonempty word from w_ on; past the last: w_ = words_, rest_ 0.
      void Load() {
        for (; w_ < words_; ++w_)
          if ((rest_ = bits_->words[w_]) != 0) return;
        rest_ = 0;
      }
      const ObjBits* bits_;
      int words_;  // the words the game's objects occupy
      int w_;
      uint64_t rest_ = 0;  // the members not yet visited in word w_
    };
    ObjectsIn(const ObjBits& bits, int count) : bits_(bits), count_(count) {}
    Iterator begin() const { return Iterator(bits_, count_, 0); }
    Iterator::End end() const { return {}; }

   private:
    const ObjBits& bits_;
    int count_;
  };
  ObjectsIn Battlefield() const {
    return ObjectsIn(game_.state().battlefield, game_.state().obj.count);
  }
  // The objects on the stack (spells being cast or waiting), in object
  // order, hidden ones included: CardOf and ZoneOf still say what is seen.
  ObjectsIn Stack() const { return ObjectsIn(game_.state().stack, game_.state().obj.count); }
  Phase phase() const { return game_.state().phase; }
  // The damage assigned and waiting for its prevention step (T-4): public.
  const std::vector<PendingDamage>& PendingDamages() const { return game_.PendingDamages(); }
  // The damage dealt to p this turn by sources of `types` (0: any), where
  // the game tallies it (T-4.1): public, as life is.
  int DamageTakenThisTurn(Player p, TypeMask types) const {
    return game_.DamageTakenThisTurn(p, types);
  }
  // T-10.1: a player's rules about mana and lands (Channel, Fastbond), the
  // mana triggered mana abilities add with land o's (Mana Flare).
  const PlayerRules& RulesOf(Player p) const { return game_.Rules(p); }
  int ManaOnTapExtra(ObjId o, ColorMask* colors) const { return game_.ManaOnTapExtra(o, colors); }
  Player active() const { return game_.state().active; }
  int turn() const { return game_.state().turn; }

  // Hidden objects: the opponent's hand and every library (their order),
  // but one's own library while searching it.
  // Inline: policies ask it of every object they look at, many times a
  // decision.
  // Always inline, as Chars and TargetsOf::Could: the heuristic's
  // evaluation asks them of every object it weighs (a larger EvaluateBody
  // made the compiler call them, +2.3% instructions a bench game).
  [[gnu::always_inline]] bool Visible(ObjId o) const {
    if (omniscient_) return true;
    const GameState& s = game_.state();
    if (o >= s.obj.count) return false;
    // The battlefield first, without a jump table: most objects asked about.
    const Zone zone = s.obj.zone[o];
    if (zone != Zone::kBattlefield) {
      // A library is hidden, but to its owner searching it (G-3).
      if (zone == Zone::kLibrary) return s.obj.owner[o] == me_ && game_.Searching(me_);
      if (zone == Zone::kNone) return false;
      if (zone == Zone::kHand) return s.obj.owner[o] == me_;
    }
    return !s.obj.face_down[o] || s.obj.controller[o] == me_;
  }
  const std::vector<ObjId>& MyHand() const { return game_.state().players[me_].hand; }
  // The card and characteristics of a visible object; kNoCard / nullptr if hidden.
  CardId CardOf(ObjId o) const { return Visible(o) ? game_.state().obj.card[o] : kNoCard; }
  [[gnu::always_inline]] const Characteristics* Chars(ObjId o) const {
    return Visible(o) ? &game_.Chars(o) : nullptr;
  }
  Zone ZoneOf(ObjId o) const { return Visible(o) ? game_.state().obj.zone[o] : Zone::kNone; }
  bool Tapped(ObjId o) const { return game_.state().obj.tapped[o]; }
  // Public facts about objects.
  int ObjectCount() const { return game_.state().obj.count; }
  int Damage(ObjId o) const { return game_.state().obj.damage[o]; }
  int Counters(ObjId o, int kind) const { return game_.CountersOf(o, kind); }
  bool Sick(ObjId o) const { return game_.state().obj.sick[o]; }
  // T-5.6: o may attack though sick ("as though it had haste": public).
  bool AttacksAsThoughHaste(ObjId o) const { return game_.AttacksAsThoughHaste(o); }
  // T-5.3, T-5.5: the times ability `index` of o was activated this turn.
  int ActivationsThisTurn(ObjId o, int index) const { return game_.ActivationsThisTurn(o, index); }
  uint32_t Timestamp(ObjId o) const { return game_.state().obj.timestamp[o]; }
  bool game_attacking(ObjId o) const { return game_.Attacking(o); }
  // T-7.1's restrictions (public: what is on the battlefield).
  bool RestrictionsLetBlock(ObjId b, ObjId a) const { return game_.RestrictionsLetBlock(b, a); }
  // Who controls it: on the battlefield after control effects, elsewhere the
  // player who put it there (a spell's caster).
  Player Controller(ObjId o) const {
    return game_.state().obj.zone[o] == Zone::kBattlefield ? game_.Chars(o).controller
                                                           : game_.state().obj.controller[o];
  }

  // Public facts about combat, attachments and mana pools.
  ObjId Blocking(ObjId o) const { return game_.Blocking(o); }
  // T-7.3: an attacker's band, and at a division the points left and the
  // combat damage this step assigns to o so far (all public).
  ObjId BandOf(ObjId o) const { return game_.BandOf(o); }
  int DivisionLeft() const { return game_.DivisionLeft(); }
  int CombatDamageAssignedTo(ObjId o) const { return game_.CombatDamageAssignedTo(o); }
  ObjId AttachedTo(ObjId o) const { return game_.state().obj.attached_to[o]; }
  bool CantBeRegenerated(ObjId o) const { return game_.CantBeRegenerated(o); }
  int RegenerationShields(ObjId o) const { return game_.RegenerationShields(o); }
  int PoolOf(Player p, int mana) const { return game_.state().players[p].pool[mana]; }
  // Names player p's mana as it is now (Game::ManaStamp): equal stamps,
  // equal untapped permanents and pool.
  uint64_t ManaStamp(Player p) const { return game_.ManaStamp(p); }
  // What a permanent with these (visible) characteristics makes when tapped
  // to pay a cost (Game::ManaOf).
  bool ManaOf(const Characteristics& ch, ManaSource& made) const { return game_.ManaOf(ch, made); }
  // The permanents p controls that make mana (ManaOf true), tapped or not,
  // in object order: a count of mana walks these, not the battlefield.
  ObjectsIn ManaPermanents(Player p) const {
    return ObjectsIn(game_.ManaPermanents(p), game_.state().obj.count);
  }
  int Pool(Player p) const {
    int n = 0;
    for (int m : game_.state().players[p].pool) n += m;
    return n;
  }
  // The spell or ability being cast right now (the innermost casting): a
  // spell is revealed as it is cast, and so are its mode, targets and X.
  const StackItem* CastingItem() const { return game_.Casting(); }
  // Could the spell or ability of a cast or activate action target this
  // object or player in target spec `slot` (in `mode`, -1 for none)?
  bool CouldTarget(const Action& a, int slot, ObjId o, int mode = -1) const {
    return Visible(o) &&
           game_.CouldTarget(a, me_, slot, Target{Target::kObject, game_.state().Ref(o), kNoPlayer},
                             mode);
  }
  // CouldTarget(a, slot, o, mode) for object after object: what they share
  // is found at the first visible one asked about (Game::ObjectTargets).
  class TargetsOf {
   public:
    TargetsOf(const PlayerView& v, const Action& a, int slot, int mode = -1)
        : v_(v), a_(a), slot_(slot), mode_(mode) {}
    [[gnu::always_inline]] bool Could(ObjId o) {
      if (!v_.Visible(o)) return false;
      if (!targets_) targets_.emplace(v_.game_, a_, v_.me_, slot_, mode_);
      return targets_->Could(o);
    }

   private:
    const PlayerView& v_;
    Action a_;
    int slot_, mode_;
    std::optional<Game::ObjectTargets> targets_;
  };
  bool CouldTargetPlayer(const Action& a, int slot, Player p, int mode = -1) const {
    return game_.CouldTarget(a, me_, slot, Target{Target::kPlayer, {}, p}, mode);
  }
  // Does a visible object match a card's filter, read for `source` and its
  // controller `you`?
  bool Matches(FilterId f, ObjId o, ObjId source, Player you) const;

  // The spell or ability being cast (a spell is revealed as it is cast): its
  // card, and the activated ability's index or -1 for a spell. kNoCard when
  // nothing is being cast or it is a triggered or phase ability.
  CardId CastingCard() const;
  int CastingAbility() const;

  // The whole game: only for omniscient policies; others get nullptr.
  const Game* whole_game() const { return omniscient_ ? &game_ : nullptr; }

 private:
  const Game& game_;
  Player me_;
  bool omniscient_;
};

}  // namespace strata
