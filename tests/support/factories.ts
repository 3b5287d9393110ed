import type { Database } from "~/adapters/db/index.server.ts";
import { orderItems, orders, products, type StaticReview } from "~/db/schema.ts";
import { browserHeaders, TEST_ORIGIN } from "./accounts.ts";

/*
 * Test factories (products, orders, static reviews) for the integration tests; never imported by
 * the app. Orders are written straight to the database, without checkout.
 */

let counter = 0;
let orderSeq = 0;

export async function insertProduct(
  db: Database,
  overrides: Partial<typeof products.$inferInsert> = {},
) {
  counter += 1;
  const name = overrides.name ?? `Test Print ${counter}`;
  const [row] = await db
    .insert(products)
    .values({
      name,
      slug: name.toLowerCase().replace(/\s+/g, "-"),
      pricePaise: 34_900,
      category: "3D Prints",
      image: "/images/test.png",
      ...overrides,
    })
    .returning();
  return row;
}

export const staticReviews = (...ratings: number[]): StaticReview[] =>
  ratings.map((rating, i) => ({
    rating,
    name: `Shopper ${i + 1}`,
    title: "Nice",
    review: "Printed well.",
    date: "2024-01-01T00:00:00.000Z",
  }));

const address = {
  addressId: null,
  label: "Home",
  name: "Asha Rao",
  line1: "12 MG Road",
  line2: null,
  city: "Bengaluru",
  state: "Karnataka",
  postalCode: "560001",
  country: "India",
  phone: "9876543210",
};

/** An order of the given products for a user, paid unless told otherwise. */
export async function insertOrder(
  db: Database,
  userId: string,
  productIds: string[],
  paymentStatus: "unpaid" | "paid" | "failed" | "refunded" = "paid",
) {
  const [order] = await db
    .insert(orders)
    .values({
      // Unique within a test file's fresh database.
      orderNumber: `ORD-20250101-${1000 + (orderSeq++ % 9000)}`,
      userId,
      shippingAddress: address,
      billingAddress: address,
      shippingMethod: { id: "standard", label: "Standard Shipping", costPaise: 999 },
      paymentMethod: "gateway",
      paymentProvider: "sandbox",
      paymentStatus,
      paidAt: paymentStatus === "paid" ? new Date() : null,
    })
    .returning();
  await db.insert(orderItems).values(
    productIds.map((productId) => ({
      orderId: order.id,
      productId,
      name: "Test Print",
      quantity: 1,
      unitPricePaise: 34_900,
    })),
  );
  return order;
}

/** A JSON or form POST to one of the shop's endpoints, as the browser's fetch sends it. */
export function apiPost(
  pathname: string,
  body: Record<string, unknown>,
  options: { cookie?: string; json?: boolean; site?: "same-origin" | "cross-site" } = {},
): Request {
  const headers = browserHeaders({
    origin: TEST_ORIGIN,
    site: options.site ?? "same-origin",
    cookie: options.cookie,
  });
  if (options.json) {
    headers.set("content-type", "application/json");
    return new Request(`${TEST_ORIGIN}${pathname}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
  }
  headers.set("content-type", "application/x-www-form-urlencoded");
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(body)) {
    form.set(k, typeof v === "string" ? v : JSON.stringify(v));
  }
  return new Request(`${TEST_ORIGIN}${pathname}`, {
    method: "POST",
    headers,
    body: form.toString(),
  });
}
