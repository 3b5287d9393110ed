/**
 * What the cart and other storefront pages need to know about a customer's custom part, without
 * the quote engine (kept out of their JavaScript).
 */
export const CUSTOM_PART_CATEGORY = "Custom 3D Print";

export const CUSTOM_PART_EXPIRED =
  "This quote has expired. Upload your model again for a new price.";
