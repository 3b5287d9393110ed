import { MapPinPlus, Plus } from "lucide-react";
import { useCallback, useRef, useState } from "react";
import { data, Link, useSearchParams } from "react-router";
import { AddressCard, type AddressChangeResult } from "~/components/account/address-card";
import { AddressDialog, type SaveAddressResult } from "~/components/account/address-dialog";
import { Button, buttonVariants } from "~/components/ui/button";
import { readForm } from "~/lib/forms.server.ts";
import { log } from "~/lib/log.server.ts";
import {
  AddressNotFoundError,
  deleteAddress,
  listAddresses,
  saveAddress,
  setDefaultAddress,
  UnknownPinError,
} from "~/modules/addresses/addresses.server.ts";
import { requireUser } from "~/routes/guards.server.ts";
import { fieldErrors, formFields } from "~/rules/account-schemas.ts";
import {
  addressIdSchema,
  addressSchema,
  addressText,
  type SavedAddress,
} from "~/rules/address-schema.ts";
import { deliveryText } from "~/rules/delivery.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import { runtime } from "~/runtime.server.ts";
import type { Route } from "./+types/addresses";

/** The add button ignores repeated clicks for this long (SPEC.md §9). */
const ADD_DEBOUNCE_MS = 500;

export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireUser(request);
  const { db } = await runtime();
  return { addresses: await listAddresses(db, viewer.id) };
}

const notFound = () => data({ kind: "not-found" } as const, { status: 404 });

export async function action({ request }: Route.ActionArgs) {
  const viewer = await requireUser(request);
  const fields = formFields(await readForm(request));
  const { db } = await runtime();

  // An id that is not a UUID can't be one of this user's addresses.
  let addressId: string | undefined;
  if (fields.addressId) {
    const id = addressIdSchema.safeParse(fields.addressId);
    if (!id.success) return notFound();
    addressId = id.data;
  }

  try {
    if (fields.intent === "save") {
      const parsed = addressSchema.safeParse(fields);
      if (!parsed.success) {
        return data<SaveAddressResult>(
          { kind: "invalid", fieldErrors: fieldErrors(parsed.error) },
          { status: 400 },
        );
      }
      const saved = await saveAddress(db, viewer.id, parsed.data, addressId);
      return data<SaveAddressResult>({ kind: "saved", addressId: saved.addressId });
    }
    if (fields.intent === "set-default" || fields.intent === "delete") {
      if (!addressId) return notFound();
      if (fields.intent === "set-default") await setDefaultAddress(db, viewer.id, addressId);
      else await deleteAddress(db, viewer.id, addressId);
      return data<AddressChangeResult>({ kind: "changed" });
    }
    return data({ kind: "failed", message: "Unknown request" } as const, { status: 400 });
  } catch (error) {
    if (error instanceof AddressNotFoundError) return notFound();
    if (error instanceof UnknownPinError) {
      return data<SaveAddressResult>(
        { kind: "invalid", fieldErrors: { postalCode: deliveryText.pinNotFound } },
        { status: 400 },
      );
    }
    log.error("address change failed", { error, userId: viewer.id, intent: fields.intent });
    return data({ kind: "failed", message: "" } as const, { status: 500 });
  }
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    title: "Delivery Addresses",
    description: "The delivery addresses saved to your LayerKart account.",
    path: "/addresses",
    origin: originFrom(matches),
    noindex: true,
  });
}

export default function AddressesPage({ loaderData }: Route.ComponentProps) {
  const { addresses } = loaderData;
  // Sent here from checkout ('+ Add New Address', or no address yet): offer the way back.
  const [searchParams] = useSearchParams();
  const fromCheckout = searchParams.get("from") === "checkout";
  // `open` and `editing` are separate so the dialog keeps its content while it closes.
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState<SavedAddress | null>(null);
  const [session, setSession] = useState(0);
  const lastAdd = useRef(0);

  const openDialog = (address: SavedAddress | null) => {
    setEditing(address);
    setSession((n) => n + 1);
    setOpen(true);
  };
  const addAddress = () => {
    const now = Date.now();
    if (now - lastAdd.current < ADD_DEBOUNCE_MS) return;
    lastAdd.current = now;
    openDialog(null);
  };
  const close = useCallback(() => setOpen(false), []);

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-10">
      <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-bold text-3xl tracking-tight">Delivery Addresses</h1>
          <p className="mt-1 text-muted-foreground">Where we deliver your orders.</p>
        </div>
        {addresses.length > 0 ? (
          <div className="flex flex-wrap gap-2 max-sm:w-full">
            {fromCheckout && (
              <Link to="/checkout" className={buttonVariants({ className: "max-sm:w-full" })}>
                Continue to Checkout
              </Link>
            )}
            <Button
              type="button"
              onClick={addAddress}
              variant={fromCheckout ? "outline" : "default"}
              className="max-sm:w-full"
            >
              <Plus aria-hidden="true" />
              Add Address
            </Button>
          </div>
        ) : null}
      </div>

      {addresses.length === 0 ? (
        <section className="flex flex-col items-center gap-3 rounded-xl border border-dashed px-6 py-16 text-center">
          <MapPinPlus aria-hidden="true" className="size-10 text-muted-foreground" />
          <h2 className="font-semibold text-xl">{addressText.empty}</h2>
          <p className="max-w-sm text-muted-foreground">
            Add a delivery address so we know where to send your prints.
          </p>
          <Button type="button" onClick={addAddress} className="mt-2">
            <Plus aria-hidden="true" />
            Add Address
          </Button>
        </section>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {addresses.map((address) => (
            <li key={address.id}>
              <AddressCard address={address} onEdit={openDialog} />
            </li>
          ))}
        </ul>
      )}

      <AddressDialog key={session} open={open} address={editing} onClose={close} />
    </div>
  );
}
