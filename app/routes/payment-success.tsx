import { CheckCircle2, Clock, RefreshCw, XCircle } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { removePaidLines } from "~/components/cart/cart-store";
import {
  cartSettledFor,
  forgetTransaction,
  rememberCartSettled,
  storedPayment,
} from "~/components/checkout/payment-storage";
import { Button, buttonVariants } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { toast } from "~/components/ui/use-toast";
import { useRootData } from "~/lib/root-data";
import { PAYMENT_POLL, paymentResultText as text } from "~/rules/orders.ts";
import type { Route } from "./+types/payment-success";
import type { PaymentStatusResponse } from "./api.payment-status";

/*
 * /payment-success (SPEC.md §4 "Payment result page", §8, §9): where the gateway sends the
 * customer back. It reads the order and transaction ids from the URL (several spellings) or
 * browser storage, asks the shop (never the gateway directly) for the payment's state, and polls
 * while it is pending. The status endpoint answers the order's owner only.
 */

export const meta: Route.MetaFunction = () => [
  { title: "Payment status · LayerKart" },
  { name: "robots", content: "noindex" },
];

const ORDER_PARAMS = ["orderId", "order_id", "order", "merchantOrderRef"];
const TRANSACTION_PARAMS = [
  "transactionId",
  "transaction_id",
  "txnId",
  "merchantTransactionId",
  "merchantOrderId",
  "razorpay_payment_link_reference_id",
];

function firstParam(params: URLSearchParams, names: string[]): string | null {
  for (const name of names) {
    const value = params.get(name)?.trim();
    if (value) return value;
  }
  return null;
}

type View =
  | { kind: "verifying" }
  | { kind: "unavailable" }
  | { kind: "success"; orderNumber: string | null }
  | { kind: "pending"; stillProcessing: boolean; polling: boolean }
  | { kind: "failed"; title: string; description: string };

export default function PaymentResult() {
  const root = useRootData();
  const signedIn = Boolean(root?.viewer);
  const navigate = useNavigate();
  const [view, setView] = useState<View>({ kind: "verifying" });
  const ids = useRef<{ orderId: string | null; transactionId: string | null }>({
    orderId: null,
    transactionId: null,
  });
  const timers = useRef<number[]>([]);
  const pollRun = useRef(0);

  const later = useCallback((fn: () => void, ms: number) => {
    timers.current.push(window.setTimeout(fn, ms));
  }, []);
  const stopTimers = useCallback(() => {
    for (const t of timers.current) window.clearTimeout(t);
    timers.current = [];
  }, []);

  /** One verification; returns true when the payment reached a final state. */
  const verify = useCallback(
    async (run: number): Promise<"final" | "pending" | "stale"> => {
      const orderId = ids.current.orderId!;
      let body: PaymentStatusResponse;
      try {
        const res = await fetch(`/api/payment-status?orderId=${encodeURIComponent(orderId)}`, {
          headers: { accept: "application/json" },
        });
        body = (await res.json()) as PaymentStatusResponse;
      } catch {
        if (run !== pollRun.current) return "stale";
        toast({
          title: text.verificationError,
          description: text.verificationErrorDescription,
          variant: "destructive",
        });
        setView({
          kind: "failed",
          title: text.verificationError,
          description: text.verificationErrorDescription,
        });
        return "final";
      }
      if (run !== pollRun.current) return "stale";
      if (!body.success) {
        const description = body.error || text.verificationFailedDescription;
        toast({ title: text.verificationFailed, description, variant: "destructive" });
        setView({ kind: "failed", title: text.verificationFailed, description });
        return "final";
      }
      if (body.status === "SUCCESS") {
        forgetTransaction();
        // The paid lines leave the cart (the server removed them from the stored cart already),
        // once: reopened later, this page leaves a newer cart alone.
        if (!cartSettledFor(orderId)) {
          await removePaidLines(body.lines ?? body.productIds.map((productId) => ({ productId })));
          rememberCartSettled(orderId);
        }
        if (run !== pollRun.current) return "stale";
        toast({ title: text.success, description: `Order ${body.orderNumber} is confirmed.` });
        setView({ kind: "success", orderNumber: body.orderNumber });
        later(() => navigate("/orders", { replace: true }), PAYMENT_POLL.redirectAfterFinalMs);
        return "final";
      }
      if (body.status === "FAILED") {
        toast({ title: text.failed, description: text.failedDescription, variant: "destructive" });
        setView({ kind: "failed", title: text.failed, description: text.failedDescription });
        later(() => navigate("/checkout", { replace: true }), PAYMENT_POLL.redirectAfterFinalMs);
        return "final";
      }
      return "pending";
    },
    [later, navigate],
  );

  const poll = useCallback(() => {
    stopTimers();
    const run = ++pollRun.current;
    let tries = 0;
    setView({ kind: "pending", stillProcessing: false, polling: true });
    const tick = async () => {
      tries += 1;
      const outcome = await verify(run);
      if (outcome !== "pending") return;
      if (tries >= PAYMENT_POLL.maxTries) {
        toast({ title: text.stillProcessing, description: text.stillProcessingDescription });
        setView({ kind: "pending", stillProcessing: true, polling: false });
        return;
      }
      later(() => void tick(), PAYMENT_POLL.intervalMs);
    };
    later(() => void tick(), PAYMENT_POLL.intervalMs);
  }, [later, stopTimers, verify]);

  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const stored = storedPayment();
    const orderId = firstParam(params, ORDER_PARAMS) ?? stored.orderId;
    const transactionId = firstParam(params, TRANSACTION_PARAMS) ?? stored.transactionId;
    ids.current = { orderId, transactionId };
    if (!orderId) {
      setView({ kind: "unavailable" });
      later(() => navigate("/", { replace: true }), PAYMENT_POLL.redirectWithoutOrderMs);
      return stopTimers;
    }
    if (!transactionId) {
      toast({
        title: text.invalidResponse,
        description: text.invalidResponseDescription,
        variant: "destructive",
      });
      setView({
        kind: "failed",
        title: text.invalidResponse,
        description: text.invalidResponseDescription,
      });
      return stopTimers;
    }
    const run = ++pollRun.current;
    void verify(run).then((outcome) => {
      if (outcome === "pending") poll();
    });
    return () => {
      pollRun.current += 1;
      stopTimers();
    };
  }, [later, navigate, poll, stopTimers, verify]);

  return (
    <section className="mx-auto flex min-h-[60vh] max-w-lg flex-col justify-center px-4 py-12">
      <div className="rounded-lg border bg-card p-8 text-center" aria-live="polite">
        {view.kind === "verifying" && (
          <div className="flex flex-col items-center gap-4">
            <Spinner label="Verifying your payment…" iconClassName="size-10" />
            <h1 className="font-semibold text-xl">Verifying your payment…</h1>
            <p className="text-muted-foreground text-sm">Please don't close this page.</p>
          </div>
        )}
        {view.kind === "unavailable" && (
          <div className="flex flex-col items-center gap-4">
            <XCircle aria-hidden="true" className="size-12 text-muted-foreground" />
            <h1 className="font-semibold text-xl">{text.unavailable}</h1>
            <p className="text-muted-foreground text-sm">Taking you to the home page…</p>
          </div>
        )}
        {view.kind === "success" && (
          <div className="flex flex-col items-center gap-4">
            <CheckCircle2
              aria-hidden="true"
              className="size-12 text-green-700 dark:text-green-400"
            />
            <h1 className="font-semibold text-xl">{text.success}</h1>
            {view.orderNumber && (
              <p>
                Order <span className="font-medium">{view.orderNumber}</span> is confirmed.
              </p>
            )}
            <p className="text-muted-foreground text-sm">Taking you to your orders…</p>
            {signedIn && (
              <div className="flex flex-wrap justify-center gap-2">
                <Link to="/orders" className={buttonVariants()}>
                  View Orders
                </Link>
                <Link to="/" className={buttonVariants({ variant: "outline" })}>
                  Continue Shopping
                </Link>
              </div>
            )}
          </div>
        )}
        {view.kind === "pending" && (
          <div className="flex flex-col items-center gap-4">
            <Clock aria-hidden="true" className="size-12 text-amber-700 dark:text-amber-400" />
            <h1 className="font-semibold text-xl">
              {view.stillProcessing ? text.stillProcessing : "Payment Pending"}
            </h1>
            <p className="text-muted-foreground text-sm">
              {view.stillProcessing
                ? text.stillProcessingDescription
                : "We're waiting for the payment provider to confirm your payment. This page checks again every few seconds."}
            </p>
            {view.polling && <Spinner label="Checking payment status" />}
            {signedIn && (
              <div className="flex flex-wrap justify-center gap-2">
                <Button type="button" onClick={poll} disabled={view.polling}>
                  <RefreshCw aria-hidden="true" className="size-4" /> Refresh Status
                </Button>
                <Link to="/orders" className={buttonVariants({ variant: "outline" })}>
                  View Orders
                </Link>
              </div>
            )}
          </div>
        )}
        {view.kind === "failed" && (
          <div className="flex flex-col items-center gap-4">
            <XCircle aria-hidden="true" className="size-12 text-destructive" />
            <h1 className="font-semibold text-xl">{view.title}</h1>
            <p className="text-muted-foreground text-sm">{view.description}</p>
            {signedIn && (
              <div className="flex flex-wrap justify-center gap-2">
                <Link to="/checkout" className={buttonVariants()}>
                  Try Again
                </Link>
                <Link to="/orders" className={buttonVariants({ variant: "outline" })}>
                  View Orders
                </Link>
              </div>
            )}
          </div>
        )}
      </div>
    </section>
  );
}
