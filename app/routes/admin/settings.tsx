import { LoaderCircle } from "lucide-react";
import { type ReactNode, useState } from "react";
import { data, useFetcher } from "react-router";
import { FormAlert } from "~/components/account/form-alert";
import { errorId, FieldError, FormField } from "~/components/account/form-field";
import { AdminDate } from "~/components/admin/admin-date";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import { readForm } from "~/lib/forms.server.ts";
import { log } from "~/lib/log.server.ts";
import { useHydrated } from "~/lib/use-hydrated";
import { getShopSettings, saveShopSettings } from "~/modules/settings/settings.server.ts";
import { pinAccepted } from "~/modules/shipping/pin-directory.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { type FieldErrors, fieldErrors, formFields } from "~/rules/account-schemas.ts";
import { deliveryText } from "~/rules/delivery.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import {
  INDIAN_STATES,
  INDIAN_UNION_TERRITORIES,
  settingsSchema,
  settingsText,
  settingsToForm,
} from "~/rules/settings-schema.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/settings";

/*
 * /admin/settings: shipping and tax (DESIGN.md decision 2), cash on delivery, and the shop's
 * identity printed on GST invoices.
 */

/** The rate table's rows: the form's field stem and the zone's name. */
const RATE_ZONES = [
  ["Local", "Within the city"],
  ["State", "Within the state"],
  ["Metro", "Metro to metro"],
  ["Rest", "Rest of India"],
  ["Special", "Special zones (North-East, J&K, Ladakh, A&N, Lakshadweep)"],
] as const;

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const { db } = await runtime();
  const { shipping } = await runtime();
  const settings = await getShopSettings(db);
  return {
    form: settingsToForm(settings),
    updatedAt: settings.updatedAt.toISOString(),
    /** Courier rates need a courier account (decision 0019). */
    courierAccount: shipping.name !== "manual",
  };
}

export type SettingsResult =
  | { kind: "saved"; changed: number }
  | { kind: "invalid"; fieldErrors: FieldErrors }
  | { kind: "failed" };

export async function action({ request }: Route.ActionArgs) {
  const viewer = await requireAdmin(request);
  const parsed = settingsSchema.safeParse(formFields(await readForm(request)));
  if (!parsed.success) {
    return data<SettingsResult>(
      { kind: "invalid", fieldErrors: fieldErrors(parsed.error) },
      { status: 400 },
    );
  }
  const { db } = await runtime();
  if (!(await pinAccepted(db, parsed.data.shipFromPin))) {
    return data<SettingsResult>(
      { kind: "invalid", fieldErrors: { shipFromPin: deliveryText.pinNotFound } },
      { status: 400 },
    );
  }
  try {
    const { changed } = await saveShopSettings(db, viewer, parsed.data);
    return data<SettingsResult>({ kind: "saved", changed: changed.length });
  } catch (error) {
    log.error("saving shop settings failed", { error, actorId: viewer.id });
    return data<SettingsResult>({ kind: "failed" }, { status: 500 });
  }
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    title: "Settings",
    description: "Shipping, tax, cash on delivery and the shop's identity.",
    path: "/admin/settings",
    origin: originFrom(matches),
    noindex: true,
  });
}

function describe(result: SettingsResult) {
  if (result.kind === "saved") {
    return {
      ok: true,
      title: settingsText.saved,
      description: result.changed === 0 ? "Nothing had changed." : undefined,
    };
  }
  return {
    ok: false,
    title: settingsText.saveFailed,
    description: result.kind === "invalid" ? settingsText.fixFields : "Please try again.",
  };
}

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { form } = loaderData;
  const fetcher = useFetcher<SettingsResult>();
  const hydrated = useHydrated();
  const [clientResult, setClientResult] = useState<SettingsResult | null>(null);
  const busy = fetcher.state !== "idle";
  const result = clientResult ?? fetcher.data ?? actionData;
  const errors = result?.kind === "invalid" ? result.fieldErrors : {};

  // With JavaScript every outcome is a toast; without, a message at the top of the form.
  useOutcomeToast(
    clientResult ? { state: "idle", data: clientResult } : fetcher,
    (outcome) => {
      const message = describe(outcome);
      return {
        title: message.title,
        description: message.description,
        variant: message.ok ? "default" : "destructive",
      };
    },
    (outcome) => {
      if (outcome.kind === "invalid") {
        const first = Object.keys(outcome.fieldErrors)[0];
        document.getElementById(`settings-${first}`)?.focus();
      }
    },
  );
  const inline = !hydrated && actionData ? describe(actionData) : null;

  const field = (name: keyof typeof form) => ({
    id: `settings-${name}`,
    name,
    defaultValue: form[name],
    error: errors[name],
  });

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10">
      <h1 className="font-bold text-3xl tracking-tight">Settings</h1>
      <p className="mt-1 text-muted-foreground">
        Last changed <AdminDate value={loaderData.updatedAt} />
      </p>
      {inline ? (
        <FormAlert tone={inline.ok ? "success" : "error"} title={inline.title} className="mt-6">
          {inline.description}
        </FormAlert>
      ) : null}

      <fetcher.Form
        // Saved: the form starts again from the stored (normalised) values.
        key={loaderData.updatedAt}
        method="post"
        noValidate
        className="mt-8 grid gap-8"
        onSubmit={(event) => {
          const parsed = settingsSchema.safeParse(formFields(new FormData(event.currentTarget)));
          if (!parsed.success) {
            event.preventDefault();
            setClientResult({ kind: "invalid", fieldErrors: fieldErrors(parsed.error) });
            return;
          }
          setClientResult(null);
        }}
      >
        <Section title="Shipping and tax" id="settings-shipping">
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              {...field("shippingFee")}
              label="Shipping fee (₹)"
              inputMode="decimal"
              autoComplete="off"
              hint="The cart's estimate until a customer gives a PIN code; checkout charges the rate for the delivery PIN (below)."
            />
            <FormField
              {...field("taxRate")}
              label="Tax rate (%)"
              inputMode="decimal"
              autoComplete="off"
              hint="Percent of the subtotal, 0–100, up to 2 decimals."
            />
            <FormField
              {...field("freeShippingThreshold")}
              label="Free shipping from (₹, optional)"
              inputMode="decimal"
              autoComplete="off"
              hint="Orders at or above this ship free. Empty: shipping is always charged."
              className="sm:col-span-2"
            />
          </div>
        </Section>

        <Section title="Cash on delivery" id="settings-cod">
          <div className="grid gap-4">
            <div className="flex items-center gap-3">
              <input
                id="settings-codEnabled"
                name="codEnabled"
                type="checkbox"
                defaultChecked={form.codEnabled === "on"}
                className="size-4 accent-primary"
              />
              <Label htmlFor="settings-codEnabled">Offer cash on delivery</Label>
            </div>
            <FormField
              {...field("codMaxOrder")}
              label="Maximum order value for COD (₹, optional)"
              inputMode="decimal"
              autoComplete="off"
              hint="Larger orders must be paid online. Empty: no limit. Each zone's COD fee and limit are under Shipping rates."
            />
          </div>
        </Section>

        <Section title="Delivery dates" id="settings-delivery">
          <p className="-mt-2 mb-4 text-muted-foreground text-sm">
            The PIN code box on product pages, the cart and custom printing promises a date from
            these: the time to get an item ready plus the courier's days from this PIN, in working
            days (Sundays and the holidays below don't count).
          </p>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              {...field("shipFromPin")}
              label="Ships from PIN code"
              inputMode="numeric"
              autoComplete="off"
              maxLength={6}
              hint="Where parcels are handed to the courier."
            />
            <FormField
              {...field("dispatchDays")}
              label="Dispatch time (working days)"
              inputMode="numeric"
              autoComplete="off"
              hint="For items on the shelf (stock counted)."
            />
            <FormField
              {...field("printLeadDays")}
              label="Print lead time (working days)"
              inputMode="numeric"
              autoComplete="off"
              hint="Items printed to order (stock not counted) and custom parts."
            />
            <div className="grid gap-2">
              <Label htmlFor="settings-printLeadDaysByCategory">
                Print lead time by category (optional)
              </Label>
              <Textarea
                id="settings-printLeadDaysByCategory"
                name="printLeadDaysByCategory"
                rows={3}
                placeholder={"3D Characters: 5\nCustom 3D Print: 4"}
                defaultValue={form.printLeadDaysByCategory}
                aria-invalid={errors.printLeadDaysByCategory ? true : undefined}
                aria-describedby={
                  errors.printLeadDaysByCategory
                    ? errorId("settings-printLeadDaysByCategory")
                    : undefined
                }
              />
              <FieldError
                id="settings-printLeadDaysByCategory"
                message={errors.printLeadDaysByCategory}
              />
            </div>
            <fieldset className="grid gap-3 sm:col-span-2">
              <legend className="mb-2 font-medium text-sm">
                Courier days by zone (working days)
              </legend>
              <div className="grid grid-cols-2 gap-4 sm:grid-cols-5">
                <FormField
                  {...field("transitLocal")}
                  label="Within the city"
                  inputMode="numeric"
                  autoComplete="off"
                />
                <FormField
                  {...field("transitState")}
                  label="Within the state"
                  inputMode="numeric"
                  autoComplete="off"
                />
                <FormField
                  {...field("transitMetro")}
                  label="Metro to metro"
                  inputMode="numeric"
                  autoComplete="off"
                />
                <FormField
                  {...field("transitRest")}
                  label="Rest of India"
                  inputMode="numeric"
                  autoComplete="off"
                />
                <FormField
                  {...field("transitSpecial")}
                  label="Special zones"
                  inputMode="numeric"
                  autoComplete="off"
                  hint="North-East, J&K, Ladakh, A&N, Lakshadweep."
                />
              </div>
            </fieldset>
            <div className="grid gap-2 sm:col-span-2">
              <Label htmlFor="settings-holidays">Holidays (optional)</Label>
              <Textarea
                id="settings-holidays"
                name="holidays"
                rows={3}
                placeholder={"2026-12-25\n2027-01-26"}
                defaultValue={form.holidays}
                aria-invalid={errors.holidays ? true : undefined}
                aria-describedby={errors.holidays ? errorId("settings-holidays") : undefined}
              />
              <FieldError id="settings-holidays" message={errors.holidays} />
            </div>
          </div>
        </Section>

        <Section title="Shipping rates and cash on delivery" id="settings-rates">
          <p className="-mt-2 mb-4 text-muted-foreground text-sm">
            Checkout charges the rate for the zone between the ships-from PIN and the delivery PIN,
            by the cart's chargeable weight: the greater of its packed weight and its volumetric
            weight (L×B×H in cm ÷ 5000, in kg), rounded up to the next 500 g. The free-shipping
            threshold and free-shipping discounts still make it ₹0. Cash on delivery adds the zone's
            COD fee, for orders up to the zone's COD limit (empty: no limit of its own; 0: no cash
            on delivery in that zone). The switch and the maximum above still apply everywhere.
          </p>
          <div className="grid gap-4">
            {RATE_ZONES.map(([zone, label]) => (
              <fieldset key={zone} className="grid gap-2">
                <legend className="mb-1 font-medium text-sm">{label}</legend>
                <div className="grid grid-cols-2 gap-4 sm:grid-cols-4">
                  <FormField
                    {...field(`rate${zone}First`)}
                    label="First 500 g (₹)"
                    inputMode="decimal"
                    autoComplete="off"
                  />
                  <FormField
                    {...field(`rate${zone}Additional`)}
                    label="Each further 500 g (₹)"
                    inputMode="decimal"
                    autoComplete="off"
                  />
                  <FormField
                    {...field(`codFee${zone}`)}
                    label="COD fee (₹)"
                    inputMode="decimal"
                    autoComplete="off"
                  />
                  <FormField
                    {...field(`codLimit${zone}`)}
                    label="COD limit (₹, optional)"
                    inputMode="decimal"
                    autoComplete="off"
                  />
                </div>
              </fieldset>
            ))}
          </div>
        </Section>

        <Section title="Courier rates" id="settings-courier">
          <p className="-mt-2 mb-4 text-muted-foreground text-sm">
            {loaderData.courierAccount
              ? "With your courier account, checkout can charge what a courier quotes for the parcel to the customer's PIN code instead of the rate table. If the courier doesn't answer in time, checkout charges the rate table."
              : "This needs a courier account (Shiprocket). Until one is set up, checkout charges the rate table whatever is chosen here."}
          </p>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid gap-2">
              <Label htmlFor="settings-courierRates">Checkout charges</Label>
              <select
                id="settings-courierRates"
                name="courierRates"
                defaultValue={form.courierRates}
                aria-invalid={errors.courierRates ? true : undefined}
                aria-describedby={
                  errors.courierRates ? errorId("settings-courierRates") : undefined
                }
                className="h-10 w-full rounded-md border border-input bg-background px-3 text-base shadow-xs focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background aria-invalid:border-destructive md:text-sm"
              >
                <option value="table">The rate table</option>
                <option value="cheapest">The cheapest courier that serves the PIN code</option>
                <option value="preferred">My preferred courier (else the cheapest)</option>
              </select>
              <FieldError id="settings-courierRates" message={errors.courierRates} />
            </div>
            <FormField
              {...field("preferredCourier")}
              label="Preferred courier (optional)"
              autoComplete="off"
              maxLength={100}
              hint="Its name as your courier account lists it, e.g. Delhivery Surface."
            />
          </div>
        </Section>

        <Section title="Shop identity" id="settings-identity">
          <p className="-mt-2 mb-4 text-muted-foreground text-sm">
            Printed on GST invoices and shown on the contact page.
          </p>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField
              {...field("shopName")}
              label="Shop name"
              autoComplete="organization"
              required
              className="sm:col-span-2"
            />
            <div className="grid gap-2 sm:col-span-2">
              <Label htmlFor="settings-shopAddress">Address</Label>
              <Textarea
                id="settings-shopAddress"
                name="shopAddress"
                rows={3}
                defaultValue={form.shopAddress}
                aria-invalid={errors.shopAddress ? true : undefined}
                aria-describedby={errors.shopAddress ? errorId("settings-shopAddress") : undefined}
              />
              <FieldError id="settings-shopAddress" message={errors.shopAddress} />
            </div>
            <FormField {...field("shopPhone")} label="Phone" type="tel" autoComplete="off" />
            <FormField {...field("shopEmail")} label="Email" type="email" autoComplete="off" />
            <FormField
              {...field("gstin")}
              label="GSTIN (optional)"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={20}
              hint="15 characters, e.g. 29ABCDE1234F1Z5: state code, PAN, entity number, Z, check character."
            />
            <div className="grid gap-2">
              <Label htmlFor="settings-shopState">State</Label>
              <select
                id="settings-shopState"
                name="shopState"
                defaultValue={form.shopState}
                aria-invalid={errors.shopState ? true : undefined}
                aria-describedby={errors.shopState ? errorId("settings-shopState") : undefined}
                className="h-10 w-full rounded-md border border-input bg-background px-3 text-base shadow-xs focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background aria-invalid:border-destructive md:text-sm"
              >
                <optgroup label="States">
                  {INDIAN_STATES.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </optgroup>
                <optgroup label="Union territories">
                  {INDIAN_UNION_TERRITORIES.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </optgroup>
              </select>
              <FieldError id="settings-shopState" message={errors.shopState} />
            </div>
          </div>
        </Section>

        <div className="flex justify-end">
          <Button type="submit" disabled={busy} className="max-sm:w-full">
            {busy ? (
              <LoaderCircle aria-hidden="true" className="size-4 motion-safe:animate-spin" />
            ) : null}
            Save Settings
          </Button>
        </div>
      </fetcher.Form>
    </div>
  );
}

function Section({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-xl border bg-card p-5 shadow-xs sm:p-6">
      <h2 id={id} className="mb-4 font-semibold text-xl">
        {title}
      </h2>
      {children}
    </section>
  );
}
