import { useEffect } from "react";
import { toast } from "~/components/ui/use-toast";

export type FlashMessage = { id: string; title: string; description?: string };

/**
 * Shows a one-shot message carried across a redirect (e.g. "Signed out") as a toast, once per
 * message. Mount once in the root layout with the root loader's `flash`.
 */
export function FlashToast({ flash }: { flash: FlashMessage | null }) {
  const id = flash?.id;
  const title = flash?.title;
  const description = flash?.description;
  useEffect(() => {
    if (id && title) toast({ title, description });
  }, [id, title, description]);
  return null;
}
