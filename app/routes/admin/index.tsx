import {
  Boxes,
  ClipboardList,
  type LucideIcon,
  Mail,
  Megaphone,
  Package,
  Star,
  Tags,
  Users,
} from "lucide-react";
import { Link } from "react-router";
import { requireAdmin } from "~/modules/accounts/guards.server.ts";
import { originFrom, pageMeta } from "~/rules/seo.ts";
import type { Route } from "./+types/index";

/** The admin dashboard: only admins get here (the guard runs on the server, before anything). */
export async function loader({ request }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request);
  return { name: viewer.name };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    title: "Admin Dashboard",
    description: "Manage the LayerKart catalogue, orders, customers and promotions.",
    path: "/admin",
    origin: originFrom(matches),
    noindex: true,
  });
}

type Section = { to: string; title: string; description: string; icon: LucideIcon };

const sections: Section[] = [
  {
    to: "/admin/items",
    title: "Items",
    description: "Add products and edit their details, prices, stock and images.",
    icon: Package,
  },
  {
    to: "/admin/orders",
    title: "Orders",
    description: "Follow orders from payment to delivery and update their status.",
    icon: ClipboardList,
  },
  {
    to: "/admin/users",
    title: "Users",
    description: "See customer profiles and who has admin access.",
    icon: Users,
  },
  {
    to: "/admin/categories",
    title: "Categories",
    description: "Add and remove the categories products are filed under.",
    icon: Tags,
  },
  {
    to: "/admin/sponsored-products",
    title: "Sponsored Products",
    description: "Choose the products shown in the home page carousel.",
    icon: Star,
  },
  {
    to: "/admin/promotions",
    title: "Promotions",
    description: "Create and retire the offers in the Special Offers section.",
    icon: Megaphone,
  },
  {
    to: "/admin/subscribers",
    title: "Subscribers",
    description: "See who signed up for the newsletter.",
    icon: Mail,
  },
];

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-10">
      <div className="mb-8 flex items-center gap-3">
        <Boxes aria-hidden="true" className="size-8 text-primary" />
        <div>
          <h1 className="font-bold text-3xl tracking-tight">Admin Dashboard</h1>
          <p className="text-muted-foreground">Signed in as {loaderData.name}.</p>
        </div>
      </div>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {sections.map(({ to, title, description, icon: Icon }) => (
          <li key={to}>
            <Link
              to={to}
              className="flex h-full gap-4 rounded-xl border bg-card p-5 shadow-xs transition-colors hover:border-primary/60 hover:bg-accent/40 focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring"
            >
              <span className="flex size-11 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
                <Icon aria-hidden="true" className="size-5" />
              </span>
              <span className="grid gap-1">
                <span className="font-semibold text-lg">{title}</span>
                <span className="text-muted-foreground text-sm">{description}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
