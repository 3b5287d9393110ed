import { Heart, LifeBuoy, LoaderCircle, LogOut, MapPin, Package } from "lucide-react";
import { useState } from "react";
import { data, Form, Link, useFetcher } from "react-router";
import { FormAlert } from "~/components/account/form-alert";
import { FormField } from "~/components/account/form-field";
import { Button } from "~/components/ui/button";
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import { readForm } from "~/lib/forms.server.ts";
import { useHydrated } from "~/lib/use-hydrated";
import { getProfile, updateProfile } from "~/modules/accounts/profile.server.ts";
import { requireUser } from "~/routes/guards.server.ts";
import {
  accountText,
  type FieldErrors,
  fieldErrors,
  formFields,
  profileSchema,
} from "~/rules/account-schemas.ts";
import { indianMobile } from "~/rules/phone.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/account";

export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireUser(request);
  const { db } = await runtime();
  const profile = await getProfile(db, viewer.id);
  return {
    name: profile?.name ?? viewer.name,
    email: profile?.email ?? viewer.email,
    phone: profile?.phone ?? "",
  };
}

type ActionResult =
  | { kind: "saved" }
  | { kind: "invalid"; fieldErrors: FieldErrors }
  | { kind: "failed"; message: string };

export async function action({ request }: Route.ActionArgs) {
  const viewer = await requireUser(request);
  const parsed = profileSchema.safeParse(formFields(await readForm(request)));
  if (!parsed.success) {
    return data<ActionResult>(
      { kind: "invalid", fieldErrors: fieldErrors(parsed.error) },
      { status: 400 },
    );
  }
  const { db } = await runtime();
  try {
    await updateProfile(db, viewer.id, parsed.data);
  } catch {
    return data<ActionResult>({ kind: "failed", message: "" }, { status: 500 });
  }
  return data<ActionResult>({ kind: "saved" });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    title: "My Account",
    description: "Your LayerKart profile: name, phone and quick links to orders and addresses.",
    path: "/account",
    origin: originFrom(matches),
    noindex: true,
  });
}

/** The spec's title and description for a result, as a toast or as an alert in the page. */
function messageFor(result: ActionResult): { title: string; description?: string; ok: boolean } {
  if (result.kind === "saved") return { title: accountText.profileSaved, ok: true };
  if (result.kind === "failed") {
    return {
      title: accountText.saveFailed,
      description: result.message || accountText.tryAgain,
      ok: false,
    };
  }
  if (result.fieldErrors.name) {
    return {
      title: accountText.nameRequiredTitle,
      description: accountText.nameRequiredDescription,
      ok: false,
    };
  }
  return {
    title: accountText.invalidPhoneTitle,
    description: accountText.invalidPhoneDescription,
    ok: false,
  };
}

const quickLinks = [
  { to: "/orders", label: "My Orders", text: "Track, review and re-order", icon: Package },
  { to: "/addresses", label: "Addresses", text: "Delivery addresses", icon: MapPin },
  { to: "/favourites", label: "Favourites", text: "Products you saved", icon: Heart },
  { to: "/faq", label: "Help & Support", text: "Answers to common questions", icon: LifeBuoy },
] as const;

export default function AccountPage({ loaderData, actionData }: Route.ComponentProps) {
  const fetcher = useFetcher<typeof action>();
  const hydrated = useHydrated();
  const [clientResult, setClientResult] = useState<ActionResult | null>(null);
  const busy = fetcher.state !== "idle";
  const result = clientResult ?? fetcher.data ?? actionData;
  const errors = result?.kind === "invalid" ? result.fieldErrors : {};

  // With JavaScript every outcome is a toast (SPEC.md §5, §8); without, an alert in the page.
  useOutcomeToast(clientResult ? { state: "idle", data: clientResult } : fetcher, (outcome) => {
    const message = messageFor(outcome);
    return {
      title: message.title,
      description: message.description,
      variant: message.ok ? "default" : "destructive",
    };
  });

  const inline = !hydrated && actionData ? messageFor(actionData) : null;

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10">
      <h1 className="font-bold text-3xl tracking-tight">My Account</h1>
      <p className="mt-1 text-muted-foreground">Manage your profile and find your way around.</p>

      <section
        aria-labelledby="profile-heading"
        className="mt-8 rounded-xl border bg-card p-5 shadow-xs sm:p-6"
      >
        <h2 id="profile-heading" className="mb-4 font-semibold text-xl">
          Profile
        </h2>
        {inline ? (
          <FormAlert tone={inline.ok ? "success" : "error"} title={inline.title} className="mb-4">
            {inline.description}
          </FormAlert>
        ) : null}
        <fetcher.Form
          method="post"
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            const parsed = profileSchema.safeParse(formFields(new FormData(event.currentTarget)));
            if (!parsed.success) {
              event.preventDefault();
              setClientResult({ kind: "invalid", fieldErrors: fieldErrors(parsed.error) });
              return;
            }
            setClientResult(null);
          }}
        >
          <FormField
            id="profile-name"
            name="name"
            label="Full name"
            autoComplete="name"
            required
            defaultValue={loaderData.name}
            error={errors.name}
          />
          <FormField
            id="profile-email"
            name="email"
            type="email"
            label="Email"
            value={loaderData.email}
            readOnly
            aria-readonly="true"
            className="[&_input]:bg-muted [&_input]:text-muted-foreground"
            hint="Your email address can't be changed."
          />
          <FormField
            id="profile-phone"
            name="phone"
            type="tel"
            inputMode="tel"
            label="Phone (optional)"
            autoComplete="tel"
            placeholder="10-digit mobile number"
            defaultValue={loaderData.phone}
            // "+91 98765 43210" is understood and shown as the 10 digits it is saved as.
            onBlur={(e) => {
              e.currentTarget.value = indianMobile(e.currentTarget.value) ?? e.currentTarget.value;
            }}
            error={errors.phone}
          />
          <div className="flex justify-end">
            <Button type="submit" disabled={busy} className="max-sm:w-full">
              {busy ? (
                <LoaderCircle aria-hidden="true" className="size-4 motion-safe:animate-spin" />
              ) : null}
              Save Profile
            </Button>
          </div>
        </fetcher.Form>
      </section>

      <nav aria-labelledby="quick-links-heading" className="mt-8">
        <h2 id="quick-links-heading" className="mb-4 font-semibold text-xl">
          Quick links
        </h2>
        <ul className="grid gap-3 sm:grid-cols-2">
          {quickLinks.map(({ to, label, text, icon: Icon }) => (
            <li key={to}>
              <Link
                to={to}
                className="flex items-center gap-3 rounded-xl border bg-card p-4 shadow-xs transition-colors hover:border-primary/60 hover:bg-accent/40 focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring"
              >
                <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
                  <Icon aria-hidden="true" className="size-5" />
                </span>
                <span className="grid">
                  <span className="font-medium">{label}</span>
                  <span className="text-muted-foreground text-sm">{text}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <Form method="post" action="/sign-out" className="mt-8">
        <Button type="submit" variant="outline" className="max-sm:w-full">
          <LogOut aria-hidden="true" />
          Sign Out
        </Button>
      </Form>
    </div>
  );
}
