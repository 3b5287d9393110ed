import { ArrowLeft, Search, TicketPercent, X } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { data, Form, Link, redirect, useFetcher, useNavigation } from "react-router";
import { FormAlert } from "~/components/account/form-alert";
import { errorId, FieldError, FormField } from "~/components/account/form-field";
import { AdminDate } from "~/components/admin/admin-date";
import { DiscountStatusBadge } from "~/components/admin/discount-status-badge";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { readForm } from "~/lib/forms.server.ts";
import { log } from "~/lib/log.server.ts";
import { useHydrated } from "~/lib/use-hydrated";
import {
  categoryChoices,
  createDiscount,
  DiscountCodeTakenError,
  DiscountNotFoundError,
  getDiscountForAdmin,
  productNames,
  promotionsShowing,
  searchProductChoices,
  UsageLimitBelowUsesError,
  updateDiscount,
} from "~/modules/discounts/admin.server.ts";
import { requireAdmin } from "~/routes/guards.server.ts";
import { type FieldErrors, fieldErrors } from "~/rules/account-schemas.ts";
import {
  discountKindLabel,
  discountKindSummary,
  discountTargetLabel,
  usesText,
} from "~/rules/discount-display.ts";
import {
  type DiscountForm,
  discountFormInput,
  discountSchema,
  discountToForm,
  EMPTY_DISCOUNT_FORM,
  submittedDiscountForm,
} from "~/rules/discount-schema.ts";
import { discountKinds, discountTargets } from "~/rules/discounts.ts";
import { isUuid } from "~/rules/ids.ts";
import { formatPaise } from "~/rules/money.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/discount";

/*
 * /admin/discounts/new and /admin/discounts/:id (issue #23): a discount's terms (how it applies,
 * what it takes off, what it applies to, its conditions, dates in India time and limits), its
 * figures and the orders that used it. ?q= searches products for the product picker.
 */

const notFound = () =>
  data({ message: "This discount doesn't exist (it may have been removed)." }, { status: 404 });

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const id = params.id;
  if (id !== "new" && !isUuid(id)) throw notFound();
  const { db } = await runtime();
  const url = new URL(request.url);
  const q = url.searchParams.get("q") ?? "";
  const [discount, categories, results, showing] = await Promise.all([
    id === "new" ? null : getDiscountForAdmin(db, id),
    categoryChoices(db),
    searchProductChoices(db, q),
    id === "new" ? [] : promotionsShowing(db, id),
  ]);
  if (id !== "new" && !discount) throw notFound();
  return {
    discount,
    form: discount ? discountToForm(discount) : EMPTY_DISCOUNT_FORM,
    categories,
    results,
    showing,
    saved: url.searchParams.get("saved") === "1",
  };
}

export type DiscountActionResult = {
  title: string;
  description: string;
  fieldErrors: FieldErrors;
  values: DiscountForm;
  products: Array<{ id: string; name: string }>;
};

export async function action({ request, params }: Route.ActionArgs) {
  const viewer = await requireAdmin(request);
  const id = params.id;
  if (id !== "new" && !isUuid(id)) throw notFound();
  const form = await readForm(request);
  const input = discountFormInput(form);
  const { db } = await runtime();
  const values = submittedDiscountForm(input);
  const refuse = async (status: number, errors: FieldErrors, description: string) =>
    data<DiscountActionResult>(
      {
        title: id === "new" ? "Failed to save" : "Failed to update",
        description,
        fieldErrors: errors,
        values,
        products: await productNames(db, values.productIds.filter(isUuid)).catch(() => []),
      },
      { status },
    );
  if (input.intent !== "save") return refuse(400, {}, "Unknown request.");
  const parsed = discountSchema.safeParse(input);
  if (!parsed.success) {
    return refuse(400, fieldErrors(parsed.error), "Please correct the highlighted fields.");
  }
  try {
    let savedId = id;
    if (id === "new") savedId = (await createDiscount(db, viewer, parsed.data)).id;
    else await updateDiscount(db, viewer, id, parsed.data);
    return redirect(`/admin/discounts/${savedId}?saved=1`);
  } catch (error) {
    if (error instanceof DiscountCodeTakenError) {
      const message =
        error.takenBy === null
          ? `The code “${error.code}” is already taken. Choose another code.`
          : `The code “${error.code}” is already used by “${error.takenBy}”. Choose another code.`;
      return refuse(409, { code: message }, message);
    }
    if (error instanceof UsageLimitBelowUsesError) {
      const message = `It has been used ${error.uses} times already: the total can't be lower.`;
      return refuse(400, { usageLimit: message }, message);
    }
    if (error instanceof DiscountNotFoundError) throw notFound();
    log.error("saving a discount failed", { error, userId: viewer.id, id });
    return refuse(500, {}, "Please try again.");
  }
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  const name = loaderData?.discount?.name;
  return pageMeta({
    title: name ? `${name} · Discounts · Admin` : "New discount · Admin",
    description: "A discount code or automatic offer.",
    path: loaderData?.discount
      ? `/admin/discounts/${loaderData.discount.id}`
      : "/admin/discounts/new",
    origin: originFrom(matches),
    noindex: true,
  });
}

const selectClass =
  "flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base shadow-xs md:text-sm focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background aria-invalid:border-destructive";

export default function AdminDiscount({ loaderData, actionData }: Route.ComponentProps) {
  const { discount, categories, showing, saved } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const result = actionData as DiscountActionResult | undefined;
  const values = result?.values ?? loaderData.form;
  const errors = result?.fieldErrors ?? {};
  const hydrated = useHydrated();
  const [method, setMethod] = useState(values.method);
  const [kind, setKind] = useState(values.kind);
  const [appliesTo, setAppliesTo] = useState(values.appliesTo);
  const [chosen, setChosen] = useState(result?.products ?? discount?.products ?? []);
  const id = useId();
  const fid = (name: string) => `${id}-${name}`;
  // Without JavaScript every section shows; with it, only those the choices above call for.
  const shows = (on: boolean) => !hydrated || on;

  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-10">
      <Link
        to="/admin/discounts"
        className="mb-4 inline-flex items-center gap-1 text-muted-foreground text-sm hover:text-foreground"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        All discounts
      </Link>
      <div className="mb-6 flex flex-wrap items-center gap-3">
        <TicketPercent aria-hidden="true" className="size-8 shrink-0 text-primary" />
        <h1 className="break-words font-bold text-3xl tracking-tight">
          {discount ? discount.name : "New discount"}
        </h1>
        {discount ? <DiscountStatusBadge status={discount.status} /> : null}
      </div>

      {saved && !result ? (
        <FormAlert tone="success" title="Discount saved" className="mb-6">
          {discount?.code
            ? `Customers can use ${discount.code} at checkout while it is live.`
            : "It applies by itself at checkout while it is live."}
        </FormAlert>
      ) : null}
      {result ? (
        <FormAlert title={result.title} className="mb-6">
          {result.description}
        </FormAlert>
      ) : null}

      {discount ? (
        <dl className="mb-8 grid gap-4 rounded-xl border bg-card p-5 shadow-xs sm:grid-cols-3">
          <Figure label="Takes off">{discountKindSummary(discount)}</Figure>
          <Figure label="Uses" testId="discount-uses">
            {usesText(discount.usesCount, discount.usageLimit)}
          </Figure>
          <Figure label="Given away" testId="discount-given">
            {formatPaise(discount.givenAwayPaise)}
          </Figure>
          {showing.length > 0 ? (
            <div className="sm:col-span-3">
              <dt className="text-muted-foreground text-sm">Shown on the home page by</dt>
              <dd>
                {showing.map((p) => p.name).join(", ")} (
                <Link to="/admin/promotions" className="underline underline-offset-4">
                  Promotions
                </Link>
                )
              </dd>
            </div>
          ) : null}
        </dl>
      ) : null}

      <Form
        method="post"
        noValidate
        // A saved discount starts the form again from what was stored.
        key={discount ? `${discount.id}-${String(discount.updatedAt)}` : "new"}
        className="grid gap-8"
        aria-busy={busy || undefined}
      >
        <input type="hidden" name="intent" value="save" />
        <fieldset disabled={busy} className="grid gap-8">
          <Section title="Discount">
            <FormField
              id={fid("name")}
              name="name"
              label="Name"
              hint="Shown to customers in the order summary, e.g. Diwali 20% off."
              required
              maxLength={100}
              defaultValue={values.name}
              error={errors.name}
            />
            <ChoiceGroup legend="How it applies" error={errors.method} id={fid("method")}>
              <Radio
                name="method"
                value="code"
                checked={method === "code"}
                onChange={() => setMethod("code")}
                label="A code the customer types"
              />
              <Radio
                name="method"
                value="automatic"
                checked={method === "automatic"}
                onChange={() => setMethod("automatic")}
                label="Automatic: applies by itself when its conditions hold"
              />
            </ChoiceGroup>
            <div hidden={!shows(method === "code")} className="grid gap-4">
              <FormField
                id={fid("code")}
                name="code"
                label="Code"
                hint="Letters, digits and dashes (3 to 32). Customers may type it in any case."
                maxLength={32}
                autoCapitalize="characters"
                autoComplete="off"
                spellCheck={false}
                defaultValue={values.code}
                error={errors.code}
                className="max-w-sm"
              />
              <Check
                name="combinesWithAutomatic"
                defaultChecked={values.combinesWithAutomatic}
                label="Combines with automatic offers"
                hint="Otherwise the customer gets whichever saves more: this code or the best automatic offer."
              />
            </div>
          </Section>

          <Section title="What it takes off">
            <div className="grid gap-2 sm:max-w-sm">
              <Label htmlFor={fid("kind")}>Kind</Label>
              <select
                id={fid("kind")}
                name="kind"
                value={kind}
                onChange={(e) => setKind(e.currentTarget.value as DiscountForm["kind"])}
                className={selectClass}
              >
                {discountKinds.map((k) => (
                  <option key={k} value={k}>
                    {discountKindLabel[k]}
                  </option>
                ))}
              </select>
            </div>
            <div hidden={!shows(kind === "percent")} className="grid gap-4 sm:grid-cols-2">
              <FormField
                id={fid("percent")}
                name="percent"
                label="Percent off"
                hint="e.g. 20"
                inputMode="decimal"
                defaultValue={values.percent}
                error={errors.percent}
              />
              <FormField
                id={fid("cap")}
                name="cap"
                label="At most (₹, optional)"
                hint="e.g. 300: never more than this off"
                inputMode="decimal"
                defaultValue={values.cap}
                error={errors.cap}
              />
            </div>
            <div hidden={!shows(kind === "flat")} className="grid gap-4 sm:grid-cols-2">
              <FormField
                id={fid("amount")}
                name="amount"
                label="Amount off (₹)"
                hint="e.g. 200"
                inputMode="decimal"
                defaultValue={values.amount}
                error={errors.amount}
              />
            </div>
            <div hidden={!shows(kind === "buy_get")} className="grid gap-4 sm:grid-cols-2">
              <FormField
                id={fid("buyQuantity")}
                name="buyQuantity"
                label="Customer buys"
                hint="Eligible items, e.g. 2"
                inputMode="numeric"
                defaultValue={values.buyQuantity}
                error={errors.buyQuantity}
              />
              <FormField
                id={fid("getQuantity")}
                name="getQuantity"
                label="And gets free"
                hint="The cheapest of them, e.g. 1"
                inputMode="numeric"
                defaultValue={values.getQuantity}
                error={errors.getQuantity}
              />
            </div>
            {shows(kind === "free_shipping") && hydrated ? (
              <p className="text-muted-foreground text-sm">
                The order's shipping fee is waived. Items keep their price.
              </p>
            ) : null}
          </Section>

          <Section title="What it applies to">
            <div className="grid gap-2 sm:max-w-sm">
              <Label htmlFor={fid("appliesTo")}>Applies to</Label>
              <select
                id={fid("appliesTo")}
                name="appliesTo"
                value={appliesTo}
                onChange={(e) => setAppliesTo(e.currentTarget.value as DiscountForm["appliesTo"])}
                className={selectClass}
              >
                {discountTargets.map((t) => (
                  <option key={t} value={t}>
                    {discountTargetLabel[t]}
                  </option>
                ))}
              </select>
            </div>
            <div hidden={!shows(appliesTo === "categories")}>
              <CategoryPicker
                id={fid("categories")}
                categories={categories}
                chosen={values.categories}
                error={errors.categories}
              />
            </div>
            <div hidden={!shows(appliesTo === "products")}>
              <ProductPicker
                id={fid("productIds")}
                chosen={chosen}
                onChange={setChosen}
                error={errors.productIds}
                discountId={discount?.id ?? "new"}
              />
            </div>
          </Section>

          <Section title="Conditions">
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField
                id={fid("minSubtotal")}
                name="minSubtotal"
                label="Minimum of eligible items (₹, optional)"
                hint="What the items it applies to must come to, before discounts."
                inputMode="decimal"
                defaultValue={values.minSubtotal}
                error={errors.minSubtotal}
              />
            </div>
            <Check
              name="firstOrderOnly"
              defaultChecked={values.firstOrderOnly}
              label="First order only"
              hint="For customers without an earlier order (they must be signed in)."
            />
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField
                id={fid("startsAt")}
                name="startsAt"
                type="datetime-local"
                label="Starts (India time, IST)"
                hint="Empty: from now."
                defaultValue={values.startsAt}
                error={errors.startsAt}
              />
              <FormField
                id={fid("endsAt")}
                name="endsAt"
                type="datetime-local"
                label="Ends (India time, IST)"
                hint="Empty: until you pause or archive it."
                defaultValue={values.endsAt}
                error={errors.endsAt}
              />
            </div>
          </Section>

          <Section title="Limits">
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField
                id={fid("usageLimit")}
                name="usageLimit"
                label="Total uses (optional)"
                hint={discount ? `Used ${discount.usesCount} times so far.` : "Empty: no limit."}
                inputMode="numeric"
                defaultValue={values.usageLimit}
                error={errors.usageLimit}
              />
              <FormField
                id={fid("perCustomerLimit")}
                name="perCustomerLimit"
                label="Uses per customer (optional)"
                hint="Customers must be signed in to use a limited code."
                inputMode="numeric"
                defaultValue={values.perCustomerLimit}
                error={errors.perCustomerLimit}
              />
            </div>
          </Section>
        </fieldset>
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={busy}>
            {busy ? "Saving…" : discount ? "Save changes" : "Create discount"}
          </Button>
          <Link to="/admin/discounts" className={buttonVariants({ variant: "outline" })}>
            Cancel
          </Link>
        </div>
      </Form>

      {discount ? <DiscountOrders orders={discount.orders} /> : null}
    </div>
  );
}

function Figure({
  label,
  children,
  testId,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div>
      <dt className="text-muted-foreground text-sm">{label}</dt>
      <dd className="font-semibold text-lg tabular-nums" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="grid gap-4 rounded-xl border bg-card p-5 shadow-xs">
      <legend className="px-1 font-semibold text-lg">{title}</legend>
      {children}
    </fieldset>
  );
}

function ChoiceGroup({
  legend,
  error,
  id,
  children,
}: {
  legend: string;
  error?: string;
  id: string;
  children: ReactNode;
}) {
  return (
    <fieldset
      className="grid gap-2"
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId(id) : undefined}
    >
      <legend className="mb-1 font-medium text-sm">{legend}</legend>
      {children}
      <FieldError id={id} message={error} />
    </fieldset>
  );
}

function Radio({
  name,
  value,
  checked,
  onChange,
  label,
}: {
  name: string;
  value: string;
  checked: boolean;
  onChange: () => void;
  label: string;
}) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        onChange={onChange}
        className="size-4 accent-primary"
      />
      {label}
    </label>
  );
}

function Check({
  name,
  defaultChecked,
  label,
  hint,
}: {
  name: string;
  defaultChecked: boolean;
  label: string;
  hint?: string;
}) {
  return (
    <label className="flex items-start gap-2 text-sm">
      <input
        type="checkbox"
        name={name}
        defaultChecked={defaultChecked}
        className="mt-0.5 size-4 accent-primary"
      />
      <span>
        <span className="font-medium">{label}</span>
        {hint ? <span className="block text-muted-foreground text-xs">{hint}</span> : null}
      </span>
    </label>
  );
}

function CategoryPicker({
  id,
  categories,
  chosen,
  error,
}: {
  id: string;
  categories: Array<{ name: string; subcategories: string[] }>;
  chosen: string[];
  error?: string;
}) {
  const lower = new Set(chosen.map((c) => c.toLowerCase()));
  const known = new Set(
    categories.flatMap((c) => [c.name, ...c.subcategories]).map((n) => n.toLowerCase()),
  );
  // A category chosen earlier that the catalogue no longer lists stays choosable.
  const others = chosen.filter((c) => !known.has(c.toLowerCase()));
  const box = (name: string, sub = false) => (
    <label key={name} className={`flex items-center gap-2 text-sm ${sub ? "ml-6" : ""}`}>
      <input
        type="checkbox"
        name="categories"
        value={name}
        defaultChecked={lower.has(name.toLowerCase())}
        className="size-4 accent-primary"
      />
      {name}
    </label>
  );
  return (
    <fieldset
      className="grid gap-2"
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId(id) : undefined}
    >
      <legend className="mb-1 font-medium text-sm">Categories and subcategories</legend>
      {categories.length === 0 && others.length === 0 ? (
        <p className="text-muted-foreground text-sm">
          The catalogue has no categories yet.{" "}
          <Link to="/admin/categories" className="underline underline-offset-4">
            Add categories
          </Link>
        </p>
      ) : null}
      <div className="grid gap-2 sm:grid-cols-2">
        {categories.map((c) => (
          <div key={c.name} className="grid gap-1.5">
            {box(c.name)}
            {c.subcategories.map((s) => box(s, true))}
          </div>
        ))}
        {others.map((o) => box(o))}
      </div>
      <FieldError id={id} message={error} />
    </fieldset>
  );
}

type Choice = { id: string; name: string; category?: string };

function ProductPicker({
  id,
  chosen,
  onChange,
  error,
  discountId,
}: {
  id: string;
  chosen: Choice[];
  onChange: (next: Choice[]) => void;
  error?: string;
  discountId: string;
}) {
  const search = useFetcher<{ results: Choice[] }>();
  const [q, setQ] = useState("");
  const results = (search.data?.results ?? []).filter((r) => !chosen.some((c) => c.id === r.id));
  const run = () => {
    if (q.trim()) search.load(`/admin/discounts/${discountId}?q=${encodeURIComponent(q.trim())}`);
  };
  return (
    <div className="grid gap-3">
      <p className="font-medium text-sm" id={`${id}-label`}>
        Chosen products
      </p>
      {chosen.length === 0 ? (
        <p className="text-muted-foreground text-sm">None yet: search below and add them.</p>
      ) : (
        <ul className="flex flex-wrap gap-2" aria-labelledby={`${id}-label`}>
          {chosen.map((p) => (
            <li key={p.id}>
              <input type="hidden" name="productIds" value={p.id} />
              <Badge variant="outline" className="gap-1 py-1 text-sm">
                {p.name}
                <button
                  type="button"
                  onClick={() => onChange(chosen.filter((c) => c.id !== p.id))}
                  aria-label={`Remove ${p.name}`}
                  className="rounded-sm hover:text-destructive"
                >
                  <X aria-hidden="true" />
                </button>
              </Badge>
            </li>
          ))}
        </ul>
      )}
      <FieldError id={id} message={error} />
      <div className="flex gap-2 sm:max-w-md">
        <Label htmlFor={`${id}-search`} className="sr-only">
          Search products by name
        </Label>
        <Input
          id={`${id}-search`}
          type="search"
          placeholder="Search products by name"
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              run();
            }
          }}
          aria-describedby={error ? errorId(id) : undefined}
        />
        <Button type="button" variant="outline" onClick={run} disabled={search.state !== "idle"}>
          <Search aria-hidden="true" />
          Search
        </Button>
      </div>
      <div role="status" className="sr-only">
        {search.state === "idle" && search.data ? `${results.length} products found` : ""}
      </div>
      {results.length > 0 ? (
        <ul className="grid gap-1 rounded-md border p-2 sm:max-w-md">
          {results.map((r) => (
            <li key={r.id} className="flex items-center justify-between gap-2 text-sm">
              <span>
                {r.name}
                {r.category ? (
                  <span className="text-muted-foreground text-xs"> · {r.category}</span>
                ) : null}
              </span>
              <Button
                type="button"
                size="sm"
                variant="outline"
                onClick={() => onChange([...chosen, { id: r.id, name: r.name }])}
                aria-label={`Add ${r.name}`}
              >
                Add
              </Button>
            </li>
          ))}
        </ul>
      ) : search.state === "idle" && search.data && q.trim() ? (
        <p className="text-muted-foreground text-sm">No products match “{q.trim()}”.</p>
      ) : null}
    </div>
  );
}

function DiscountOrders({
  orders,
}: {
  orders: Array<{
    orderId: string;
    orderNumber: string;
    customerName: string;
    customerEmail: string;
    createdAt: Date;
    amountPaise: number;
    releasedAt: Date | null;
  }>;
}) {
  return (
    <section aria-labelledby="discount-orders" className="mt-10">
      <h2 id="discount-orders" className="mb-3 font-semibold text-xl">
        Orders that used it
      </h2>
      {orders.length === 0 ? (
        <p className="rounded-xl border border-dashed p-6 text-center text-muted-foreground">
          No orders yet.
        </p>
      ) : (
        <section
          aria-label="Orders that used this discount"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
          tabIndex={0}
          className="relative overflow-x-auto rounded-xl border bg-card shadow-xs focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring"
        >
          <table className="w-full min-w-[36rem] text-sm">
            <thead className="bg-muted/50 text-left">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  Order
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Customer
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Date
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Amount
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Use
                </th>
              </tr>
            </thead>
            <tbody className="divide-y" data-testid="discount-orders">
              {orders.map((o) => (
                <tr key={o.orderId}>
                  <td className="whitespace-nowrap px-3 py-2">
                    <Link
                      to={`/admin/orders/${o.orderId}`}
                      className="font-mono underline-offset-4 hover:underline"
                    >
                      {o.orderNumber}
                    </Link>
                  </td>
                  <td className="px-3 py-2">
                    {o.customerName}
                    <div className="text-muted-foreground text-xs">{o.customerEmail}</div>
                  </td>
                  <td className="whitespace-nowrap px-3 py-2">
                    <AdminDate value={o.createdAt} />
                  </td>
                  <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">
                    {formatPaise(o.amountPaise)}
                  </td>
                  <td className="px-3 py-2">
                    {o.releasedAt ? (
                      <span>
                        Given back <AdminDate value={o.releasedAt} className="text-xs" />
                      </span>
                    ) : (
                      "Counts"
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </section>
  );
}
