/*
 * A promotion card's discount on the home page (issue #23), without zod: the home page's
 * JavaScript carries these.
 */

/** The discount a promotion card carries, as the home page shows it. */
export type PromotionOffer = {
  /** The code to copy; null: applied automatically. */
  code: string | null;
  /** When it ends (ISO), so the browser can say it ended without a new page. */
  endsAt: string | null;
  /** "Ends 31 Dec" (India's calendar). */
  endsLabel: string | null;
  /** "Starts 1 Dec" while it hasn't started. */
  startsLabel: string | null;
  /** Expired, used up, paused or archived when the page was made. */
  ended: boolean;
  /** Ended: hide the card (true) or say "This offer has ended" on it. */
  hideWhenEnded: boolean;
};

/** Whether a promotion's card still shows at `now` (an ended discount may hide it). */
export function promotionShows(promotion: { offer: PromotionOffer | null }, now: number): boolean {
  return !(promotion.offer?.hideWhenEnded && offerEnded(promotion.offer, now));
}

/** Whether the card's discount has ended at `now` (its end passed since the page was made). */
export function offerEnded(offer: PromotionOffer, now: number): boolean {
  return offer.ended || (offer.endsAt !== null && now >= Date.parse(offer.endsAt));
}
