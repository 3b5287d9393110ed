import { z } from "zod";

/**
 * A row id in a URL or a form: 8-4-4-4-12 hex digits, any case. zod's guid, not uuid: no RFC
 * version check, so any id the database's uuid type holds passes (an unknown one is then simply
 * not found).
 */
export const uuidSchema = z.guid();

export const isUuid = (value: unknown): value is string => uuidSchema.safeParse(value).success;
