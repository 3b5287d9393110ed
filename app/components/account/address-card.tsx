import { Briefcase, Home, LoaderCircle, MapPin, Pencil, Star, Trash2 } from "lucide-react";
import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "~/components/ui/alert-dialog";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { toast } from "~/components/ui/use-toast";
import type { SavedAddress } from "~/rules/address-schema.ts";

const labelIcons = { Home, Work: Briefcase, Other: MapPin } as const;

/** What the /addresses action answers to Set Default and Delete. */
export type AddressChangeResult = { kind: "changed" } | { kind: "not-found" } | { kind: "failed" };

/** One saved address with its Edit, Set Default and Delete actions. */
export function AddressCard({
  address,
  onEdit,
}: {
  address: SavedAddress;
  onEdit: (address: SavedAddress) => void;
}) {
  const fetcher = useFetcher<AddressChangeResult>();
  const busy = fetcher.state !== "idle";
  const intent = fetcher.formData?.get("intent");
  const Icon = labelIcons[address.label];
  const headingId = `address-${address.id}`;

  const reported = useRef(new WeakSet<object>());
  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== "idle" || !result || reported.current.has(result)) return;
    reported.current.add(result);
    if (result.kind !== "changed") {
      toast({
        title: "Failed to update",
        description: "Please try again.",
        variant: "destructive",
      });
    }
  }, [fetcher.state, fetcher.data]);

  const change = (next: "set-default" | "delete") =>
    fetcher.submit(
      { intent: next, addressId: address.id },
      { method: "post", action: "/addresses" },
    );

  return (
    <article
      aria-labelledby={headingId}
      data-testid="address-card"
      className="flex h-full flex-col gap-4 rounded-xl border bg-card p-5 shadow-xs data-[default=true]:border-primary/60"
      data-default={address.isDefault}
    >
      <header className="flex items-center gap-2">
        <Icon aria-hidden="true" className="size-4 text-primary" />
        <h2 id={headingId} className="font-semibold">
          {address.label}
        </h2>
        {address.isDefault ? <Badge className="ml-auto">Default</Badge> : null}
      </header>
      <address className="grid gap-0.5 text-sm not-italic">
        <span className="font-medium">{address.name}</span>
        <span>{address.line1}</span>
        <span>
          {address.city}, {address.state} {address.postalCode}
        </span>
        <span>{address.country}</span>
        <span className="mt-1 text-muted-foreground">Phone: {address.phone}</span>
      </address>
      <div className="mt-auto flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => onEdit(address)}
          disabled={busy}
          aria-label={`Edit: ${address.label} address`}
        >
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        {address.isDefault ? null : (
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={busy}
            onClick={() => change("set-default")}
            aria-label={`Set Default: ${address.label} address`}
          >
            {busy && intent === "set-default" ? (
              <LoaderCircle aria-hidden="true" className="motion-safe:animate-spin" />
            ) : (
              <Star aria-hidden="true" />
            )}
            Set Default
          </Button>
        )}
        <AlertDialog>
          <AlertDialogTrigger asChild>
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={busy}
              className="text-destructive hover:text-destructive"
              aria-label={`Delete: ${address.label} address`}
            >
              {busy && intent === "delete" ? (
                <LoaderCircle aria-hidden="true" className="motion-safe:animate-spin" />
              ) : (
                <Trash2 aria-hidden="true" />
              )}
              Delete
            </Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>Delete this address?</AlertDialogTitle>
              <AlertDialogDescription>
                {address.name}, {address.line1}, {address.city} will no longer be offered at
                checkout.
                {address.isDefault ? " Another saved address becomes your default." : ""}
              </AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <AlertDialogAction
                className={buttonVariants({ variant: "destructive" })}
                onClick={() => change("delete")}
              >
                Delete
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </div>
    </article>
  );
}
