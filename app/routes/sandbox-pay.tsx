import { and, eq } from "drizzle-orm";
import { FlaskConical } from "lucide-react";
import { data, Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { sandboxEnabled } from "~/adapters/payments/index.server.ts";
import {
  getSandboxPayment,
  type SandboxOutcome,
  settleSandboxPayment,
} from "~/adapters/payments/sandbox.server.ts";
import { Button } from "~/components/ui/button";
import { orders } from "~/db/schema.ts";
import { readForm } from "~/lib/forms.server.ts";
import { requireUser } from "~/routes/guards.server.ts";
import { formFields } from "~/rules/account-schemas.ts";
import { formatPaise } from "~/rules/money.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/sandbox-pay";

/*
 * The sandbox gateway's hosted page (DESIGN.md): clearly TEST MODE, three buttons. It exists only
 * while the sandbox is the configured provider and allowed to run.
 */

async function sandbox() {
  const rt = await runtime();
  if (rt.payments.name !== "sandbox" || !sandboxEnabled(rt.env)) {
    throw data("Not found", { status: 404 });
  }
  return rt;
}

/**
 * Only the customer whose order it is may see or settle a payment (issue 20: a transaction id
 * alone was enough); anyone else is told it doesn't exist.
 */
async function ownPayment(
  rt: Awaited<ReturnType<typeof sandbox>>,
  request: Request,
  transactionId: string,
) {
  const viewer = await requireUser(request);
  const [order] = await rt.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.paymentTransactionId, transactionId), eq(orders.userId, viewer.id)));
  if (!order) throw data("Not found", { status: 404 });
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const rt = await sandbox();
  await ownPayment(rt, request, params.transactionId);
  const payment = await getSandboxPayment(rt.db, params.transactionId);
  if (!payment) throw data("Not found", { status: 404 });
  return {
    transactionId: payment.transactionId,
    orderNumber: payment.orderNumber,
    amountPaise: payment.amountPaise,
    state: payment.state,
  };
}

/** The TEST MODE page's form: which outcome the tester chose. */
const sandboxForm = z.object({
  outcome: z.enum(["success", "failure", "pending"] satisfies SandboxOutcome[]),
});

export async function action({ request, params }: Route.ActionArgs) {
  const rt = await sandbox();
  await ownPayment(rt, request, params.transactionId);
  const parsed = sandboxForm.safeParse(formFields(await readForm(request)));
  if (!parsed.success) throw data("Choose an outcome", { status: 400 });
  const settled = await settleSandboxPayment(
    { db: rt.db, secret: rt.env.authSecret },
    params.transactionId,
    parsed.data.outcome,
  );
  if (!settled) throw data("Not found", { status: 404 });
  return redirect(settled.redirectUrl);
}

export const meta: Route.MetaFunction = () => [
  { title: "TEST MODE payment · LayerKart" },
  { name: "robots", content: "noindex" },
];

export default function SandboxPay({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const settled = loaderData.state !== "PENDING";
  return (
    <section className="mx-auto flex max-w-md flex-col gap-6 px-4 py-12">
      <p
        className="flex items-center justify-center gap-2 rounded-md border-2 border-amber-600 border-dashed bg-amber-50 px-3 py-2 font-bold text-amber-900 tracking-wide dark:bg-amber-950 dark:text-amber-100"
        role="note"
      >
        <FlaskConical aria-hidden="true" className="size-5" /> TEST MODE: no real money moves
      </p>
      <div className="rounded-lg border bg-card p-6">
        <h1 className="font-bold text-2xl">Sandbox payment</h1>
        <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-muted-foreground">Order</dt>
          <dd className="font-medium">{loaderData.orderNumber}</dd>
          <dt className="text-muted-foreground">Amount</dt>
          <dd className="font-semibold text-lg" data-testid="sandbox-amount">
            {formatPaise(loaderData.amountPaise)}
          </dd>
          <dt className="text-muted-foreground">Transaction</dt>
          <dd className="break-all font-mono text-xs">{loaderData.transactionId}</dd>
        </dl>
        {settled && (
          <p className="mt-4 text-sm" role="status">
            This payment is already {loaderData.state === "SUCCESS" ? "successful" : "failed"}.
          </p>
        )}
        <Form method="post" className="mt-6 flex flex-col gap-3">
          <Button type="submit" name="outcome" value="success" disabled={busy}>
            Simulate success
          </Button>
          <Button
            type="submit"
            name="outcome"
            value="failure"
            variant="destructive"
            disabled={busy}
          >
            Simulate failure
          </Button>
          <Button type="submit" name="outcome" value="pending" variant="outline" disabled={busy}>
            Leave pending
          </Button>
        </Form>
      </div>
    </section>
  );
}
