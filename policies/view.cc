#include "policies/view.h"

#include "engine/layers.h"

namespace strata {

bool PlayerView::Matches(FilterId f, ObjId o, ObjId source, Player you) const {
  if (f == kNoFilter) return true;
  if (!Visible(o)) return false;
  FilterContext ctx;
  ctx.source = source;
  ctx.you = you;
  if (source != kNoObj) ctx.text = &game_.Chars(source);
  return game_.Matches(f, o, ctx);
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
