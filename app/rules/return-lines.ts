import { z } from "zod";

/*
 * The lines of a return request as the form sends them: one `item` field per line, each
 * "orderItemId:quantity". A line named twice is one line with the quantities added up, so
 * "X:2&item=X:2" asks for 4 of X and is refused when the order has 2 (issue 20: it was taken as
 * two lines of 2 each).
 */

const MAX_LINES = 100;

const line = z
  .string()
  .regex(/^[0-9a-f-]{36}:\d{1,4}$/i, "Please choose items from this order.")
  .transform((entry) => {
    const [orderItemId, quantity] = entry.split(":");
    return { orderItemId: orderItemId.toLowerCase(), quantity: Number(quantity) };
  });

export const returnLinesSchema = z
  .array(line)
  .min(1, "Please choose at least one item to return.")
  .max(MAX_LINES, "Please choose items from this order.")
  .transform((lines) => {
    const merged = new Map<string, number>();
    for (const { orderItemId, quantity } of lines) {
      merged.set(orderItemId, (merged.get(orderItemId) ?? 0) + quantity);
    }
    return [...merged].map(([orderItemId, quantity]) => ({ orderItemId, quantity }));
  });

export type ReturnLine = z.output<typeof returnLinesSchema>[number];
