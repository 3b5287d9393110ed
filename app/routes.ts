import { index, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("theme", "routes/theme.ts"),
  route("api/auth/*", "routes/api.auth.$.ts"),
  // Storefront
  // /products, /3d-prints[/sub], /3d-characters[/sub]; any other one- or two-segment path that
  // no static route claims gets the 404 page from this route's loader.
  route(":listing/:sub?", "routes/listing.tsx"),
  route("product/:id", "routes/product.tsx"),
  route("search", "routes/search.tsx"),
  route("contact", "routes/contact.tsx"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
  route("cart", "routes/cart.tsx"),
  route("api/search", "routes/api.search.ts"),
  route("api/cart-products", "routes/api.cart-products.ts"),
  route("api/favourites", "routes/api.favourites.ts"),
  route("api/newsletter", "routes/api.newsletter.ts"),
  route("api/promotion-interest", "routes/api.promotion-interest.ts"),
  // Accounts
  route("sign-out", "routes/sign-out.ts"),
  route("auth", "routes/auth.tsx"),
  route("forgot-password", "routes/forgot-password.tsx"),
  route("reset-password", "routes/reset-password.tsx"),
  route("account", "routes/account.tsx"),
  route("addresses", "routes/addresses.tsx"),
  route("admin", "routes/admin/index.tsx"),
  // Content pages
  route("about", "routes/content/about.tsx"),
  route("our-story", "routes/content/our-story.tsx"),
  route("careers", "routes/content/careers.tsx"),
  route("wholesale", "routes/content/wholesale.tsx"),
  route("press", "routes/content/press.tsx"),
  route("press-kit.zip", "routes/content/press-kit.ts"),
  route("shipping", "routes/content/shipping.tsx"),
  route("returns", "routes/content/returns.tsx"),
  route("privacy-policy", "routes/content/privacy-policy.tsx"),
  route("terms", "routes/content/terms.tsx"),
  route("cookie-policy", "routes/content/cookie-policy.tsx"),
  route("refund-policy", "routes/content/refund-policy.tsx"),
  route("policies", "routes/content/policies.tsx"),
  route("size-guide", "routes/content/size-guide.tsx"),
  route("faq", "routes/content/faq.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
