import { Clock, Mail, MapPin, Phone } from "lucide-react";
import { useRef } from "react";
import { data, Link, useFetcher, useSearchParams } from "react-router";
import { BackHomeButtons } from "~/components/layout/back-home-buttons";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { useOutcomeToast } from "~/components/ui/use-outcome-toast";
import { toast } from "~/components/ui/use-toast";
import { readForm } from "~/lib/forms.server.ts";
import { publicPageHandle } from "~/lib/public-page.ts";
import { RATE_LIMITED_MESSAGE, rateLimited } from "~/lib/rate-limit.server.ts";
import { useRootData } from "~/lib/root-data";
import { getViewer } from "~/modules/accounts/viewer.server.ts";
import { submitContactMessage } from "~/modules/contact/contact.server.ts";
import { getShopSettings } from "~/modules/settings/settings.server.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { contactSchema, INVALID_EMAIL, REQUIRED_FIELDS } from "~/rules/storefront-schemas.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/contact";

export const handle = publicPageHandle;

type ActionResult =
  | { ok: true }
  | { ok: false; toast: { title: string; description: string }; field?: string };

export async function loader() {
  const { db } = await runtime();
  const s = await getShopSettings(db);
  return { shop: { address: s.shopAddress, phone: s.shopPhone, email: s.shopEmail } };
}

/** Which spec message a failed contact form gets: missing fields first, then the e-mail. */
function contactProblem(values: Record<string, unknown>): ActionResult | null {
  const parsed = contactSchema.safeParse(values);
  if (parsed.success) return null;
  const emailOnly = parsed.error.issues.every((i) => i.message === INVALID_EMAIL.description);
  return emailOnly
    ? { ok: false, toast: INVALID_EMAIL, field: "email" }
    : { ok: false, toast: REQUIRED_FIELDS, field: String(parsed.error.issues[0].path[0]) };
}

export async function action({ request }: Route.ActionArgs) {
  const values = Object.fromEntries(await readForm(request));
  const problem = contactProblem(values);
  if (problem) return data(problem, { status: 400 });
  const wait = await rateLimited((await runtime()).db, request, "contact");
  if (wait !== null) {
    return data<ActionResult>(
      { ok: false, toast: { title: "Error", description: RATE_LIMITED_MESSAGE } },
      { status: 429, headers: { "Retry-After": String(wait) } },
    );
  }
  const input = contactSchema.parse(values);
  const rt = await runtime();
  try {
    const viewer = await getViewer(rt, request);
    const settings = await getShopSettings(rt.db);
    const shopEmail = settings.shopEmail || rt.env.mailFrom;
    await submitContactMessage(
      { db: rt.db, jobs: rt.jobRunner, shopEmail },
      input,
      viewer?.id ?? null,
    );
  } catch {
    return data<ActionResult>(
      {
        ok: false,
        toast: { title: "Error", description: "Failed to send message. Please try again later." },
      },
      { status: 500 },
    );
  }
  return data<ActionResult>({ ok: true });
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: "Contact Us",
    description:
      "Write to LayerKart about orders, custom 3D prints, wholesale or anything else. Mon–Fri 9–6, Sat 10–4.",
    path: "/contact",
    origin: originFrom(matches),
  });

const faqs = [
  { q: "How long do custom orders take?", a: "Custom orders take 5-10 business days." },
  { q: "Do you ship worldwide?", a: "Yes: we ship worldwide with tracked shipping." },
  { q: "Can I send my own design?", a: "Custom designs are welcome: send your model or idea." },
];

export default function Contact({ loaderData }: Route.ComponentProps) {
  const root = useRootData();
  const [searchParams] = useSearchParams();
  const fetcher = useFetcher<ActionResult>();
  const form = useRef<HTMLFormElement>(null);
  const viewer = root?.viewer;
  const [firstName = "", ...rest] = (viewer?.name ?? "").split(" ");
  const { shop } = loaderData;

  useOutcomeToast(
    fetcher,
    (result) =>
      result.ok
        ? {
            title: "Message Sent Successfully!",
            description: "Thank you for contacting us. We'll get back to you soon.",
          }
        : { ...result.toast, variant: "destructive" },
    (result) => {
      if (result.ok) {
        // Subject and message are cleared; the sender's name and e-mail stay.
        for (const name of ["subject", "message"]) {
          const field = form.current?.elements.namedItem(name) as HTMLInputElement | null;
          if (field) field.value = "";
        }
      } else {
        (form.current?.elements.namedItem(result.field ?? "") as HTMLElement | null)?.focus();
      }
    },
  );

  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="font-bold text-3xl">Contact Us</h1>
      <p className="mt-2 max-w-2xl text-muted-foreground">
        Questions about an order, a custom print or a bulk enquiry? Send us a message and we'll
        reply within one business day.
      </p>
      <div className="mt-8 grid gap-8 lg:grid-cols-[3fr_2fr]">
        <fetcher.Form
          ref={form}
          method="post"
          noValidate
          className="space-y-4 rounded-lg border bg-card p-5"
          onSubmit={(e) => {
            const problem = contactProblem(Object.fromEntries(new FormData(e.currentTarget)));
            if (problem && !problem.ok) {
              e.preventDefault();
              toast({ ...problem.toast, variant: "destructive" });
              (
                e.currentTarget.elements.namedItem(problem.field ?? "") as HTMLElement | null
              )?.focus();
            }
          }}
        >
          <h2 className="font-semibold text-lg">Send us a message</h2>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="space-y-1.5">
              <Label htmlFor="contact-first">First Name</Label>
              <Input
                id="contact-first"
                name="firstName"
                autoComplete="given-name"
                required
                defaultValue={firstName}
              />
            </div>
            <div className="space-y-1.5">
              <Label htmlFor="contact-last">Last Name</Label>
              <Input
                id="contact-last"
                name="lastName"
                autoComplete="family-name"
                required
                defaultValue={rest.join(" ")}
              />
            </div>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="contact-email">Email</Label>
            <Input
              id="contact-email"
              name="email"
              type="email"
              autoComplete="email"
              required
              defaultValue={viewer?.email ?? ""}
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="contact-subject">Subject</Label>
            <Input
              id="contact-subject"
              name="subject"
              required
              defaultValue={searchParams.get("subject") ?? ""}
            />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="contact-message">Message</Label>
            <Textarea id="contact-message" name="message" rows={6} required />
          </div>
          <Button type="submit" disabled={fetcher.state !== "idle"}>
            {fetcher.state !== "idle" ? "Sending…" : "Send Message"}
          </Button>
        </fetcher.Form>

        <div className="space-y-6">
          <section aria-labelledby="reach-heading" className="rounded-lg border bg-card p-5">
            <h2 id="reach-heading" className="font-semibold text-lg">
              Reach us
            </h2>
            <ul className="mt-3 space-y-3 text-sm">
              <li className="flex gap-3">
                <MapPin aria-hidden="true" className="size-5 shrink-0 text-primary" />
                <span>{shop.address}</span>
              </li>
              <li className="flex gap-3">
                <Phone aria-hidden="true" className="size-5 shrink-0 text-primary" />
                <a href={`tel:${shop.phone.replace(/\s/g, "")}`} className="hover:underline">
                  {shop.phone}
                </a>
              </li>
              <li className="flex gap-3">
                <Mail aria-hidden="true" className="size-5 shrink-0 text-primary" />
                <a href={`mailto:${shop.email}`} className="hover:underline">
                  {shop.email}
                </a>
              </li>
              <li className="flex gap-3">
                <Clock aria-hidden="true" className="size-5 shrink-0 text-primary" />
                <dl className="grid grid-cols-[auto_1fr] gap-x-3">
                  <dt>Mon-Fri</dt>
                  <dd>9:00 AM - 6:00 PM</dd>
                  <dt>Sat</dt>
                  <dd>10:00 AM - 4:00 PM</dd>
                  <dt>Sun</dt>
                  <dd>Closed</dd>
                </dl>
              </li>
            </ul>
          </section>
          <section aria-labelledby="contact-faq-heading" className="rounded-lg border bg-card p-5">
            <h2 id="contact-faq-heading" className="font-semibold text-lg">
              Quick answers
            </h2>
            <dl className="mt-3 space-y-3 text-sm">
              {faqs.map((f) => (
                <div key={f.q}>
                  <dt className="font-medium">{f.q}</dt>
                  <dd className="text-muted-foreground">{f.a}</dd>
                </div>
              ))}
            </dl>
            <p className="mt-3 text-sm">
              Have a 3D model file?{" "}
              <Link to="/custom-printing" className="font-medium underline underline-offset-4">
                Get an instant quote
              </Link>
            </p>
          </section>
          <BackHomeButtons />
        </div>
      </div>
    </div>
  );
}
