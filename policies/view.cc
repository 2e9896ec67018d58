#include "policies/view.h"

namespace strata {

bool PlayerView::Visible(ObjId o) const {
  if (omniscient_) return true;
  const GameState& s = game_.state();
  if (o >= s.obj.count) return false;
  switch (s.obj.zone[o]) {
    case Zone::kLibrary:
    case Zone::kNone:
      return false;
    case Zone::kHand:
      return s.obj.owner[o] == me_;
    default:
      return !s.obj.face_down[o] || s.obj.controller[o] == me_;
  }
}

CardId PlayerView::CastingCard() const {
  const StackItem* item = game_.Casting();
  if (!item || (item->from != BodySource::kSpell && item->from != BodySource::kActivated))
    return kNoCard;
  return item->body_card;
}

int PlayerView::CastingAbility() const {
  const StackItem* item = game_.Casting();
  return item && item->from == BodySource::kActivated ? item->ability : -1;
}

}  // namespace strata
