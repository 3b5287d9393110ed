import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "./env.server.ts";

const base = { DATA_DIR: ".tmp/env-test", AUTH_SECRET: "x".repeat(32) };

describe("configuration", () => {
  it("names the variable that is wrong", () => {
    expect(() => parseEnv({ ...base, PORT: "eighty" })).toThrow(/PORT/);
    expect(() => parseEnv({ ...base, TRUST_PROXY: "yes" })).toThrow(/TRUST_PROXY/);
  });

  it("trusts no proxy, every proxy, or a number of them", () => {
    expect(parseEnv(base).trustProxy).toBe(false);
    expect(parseEnv({ ...base, TRUST_PROXY: "true" }).trustProxy).toBe(true);
    expect(parseEnv({ ...base, TRUST_PROXY: "1" }).trustProxy).toBe(1);
  });

  it("sends Server-Timing outside production unless told otherwise", () => {
    expect(parseEnv({ ...base, NODE_ENV: "development" }).serverTiming).toBe(true);
    expect(parseEnv({ ...base, NODE_ENV: "production" }).serverTiming).toBe(false);
    expect(parseEnv({ ...base, NODE_ENV: "production", SERVER_TIMING: "true" }).serverTiming).toBe(
      true,
    );
  });

  it("never seeds the demo catalogue in production unless explicitly allowed", () => {
    expect(parseEnv(base).seedDemo).toBe("auto");
    expect(parseEnv({ ...base, NODE_ENV: "production" }).seedDemo).toBe("never");
    expect(() => parseEnv({ ...base, NODE_ENV: "production", SEED_DEMO: "auto" })).toThrow(
      /SEED_DEMO: the demo catalogue .* refused when NODE_ENV=production/,
    );
    expect(
      parseEnv({ ...base, NODE_ENV: "production", SEED_DEMO: "auto", ALLOW_DEMO_SEED: "true" })
        .seedDemo,
    ).toBe("auto");
  });

  it("requires AUTH_SECRET in production, except in a demonstration shop, which generates one once", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "lk-env-"));
    try {
      const production = { DATA_DIR: dir, NODE_ENV: "production" };
      expect(() => parseEnv(production)).toThrow(/AUTH_SECRET: is required/);
      const demo = { ...production, SEED_DEMO: "auto", ALLOW_DEMO_SEED: "true" };
      const first = parseEnv(demo);
      expect(first).toMatchObject({ nodeEnv: "production", demonstration: true });
      expect(first.authSecretGenerated).toBe(true);
      expect(first.authSecret.length).toBeGreaterThanOrEqual(32);
      const file = path.join(dir, "auth-secret");
      expect(readFileSync(file, "utf8")).toBe(first.authSecret);
      expect(statSync(file).mode & 0o077).toBe(0);
      // The same secret after a restart: sessions survive it.
      expect(parseEnv(demo).authSecret).toBe(first.authSecret);
      // A secret that is given wins.
      const given = parseEnv({ ...demo, AUTH_SECRET: "y".repeat(32) });
      expect(given.authSecret).toBe("y".repeat(32));
      expect(given.authSecretGenerated).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("requires each gateway's credentials when it is chosen", () => {
    expect(() => parseEnv({ ...base, PAYMENT_PROVIDER: "phonepe" })).toThrow(ConfigError);
    expect(() => parseEnv({ ...base, PAYMENT_PROVIDER: "phonepe" })).toThrow(/PHONEPE_CLIENT_ID/);
    expect(() => parseEnv({ ...base, PAYMENT_PROVIDER: "razorpay" })).toThrow(
      /RAZORPAY_WEBHOOK_SECRET/,
    );
    const phonepe = parseEnv({
      ...base,
      PAYMENT_PROVIDER: "phonepe",
      PHONEPE_CLIENT_ID: "id",
      PHONEPE_CLIENT_SECRET: "secret",
      PHONEPE_WEBHOOK_USERNAME: "user",
      PHONEPE_WEBHOOK_PASSWORD: "pass",
      PHONEPE_ENV: "production",
    });
    expect(phonepe.phonepe).toMatchObject({
      apiUrl: "https://api.phonepe.com/apis/pg",
      authUrl: "https://api.phonepe.com/apis/identity-manager",
    });
  });

  it("runs on the manual courier unless Shiprocket is chosen with its credentials", () => {
    expect(parseEnv(base)).toMatchObject({ shippingProvider: "manual", shiprocket: null });
    expect(() => parseEnv({ ...base, SHIPPING_PROVIDER: "shiprocket" })).toThrow(
      /SHIPROCKET_WEBHOOK_TOKEN: is required when SHIPPING_PROVIDER=shiprocket/,
    );
    const chosen = parseEnv({
      ...base,
      SHIPPING_PROVIDER: "shiprocket",
      SHIPROCKET_EMAIL: "api@example.com",
      SHIPROCKET_PASSWORD: "pw",
      SHIPROCKET_WEBHOOK_TOKEN: "t".repeat(16),
    });
    expect(chosen.shiprocket).toMatchObject({
      apiUrl: "https://apiv2.shiprocket.in/v1/external",
      pickupLocation: "Primary",
    });
  });
});
