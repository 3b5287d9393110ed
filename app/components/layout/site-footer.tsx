import { Link } from "react-router";

const groups: Array<{ heading: string; links: Array<{ to: string; label: string }> }> = [
  {
    heading: "Shop",
    links: [
      { to: "/products", label: "All Products" },
      { to: "/3d-prints", label: "3D Prints" },
      { to: "/3d-characters", label: "3D Characters" },
      { to: "/wholesale", label: "Wholesale" },
      { to: "/size-guide", label: "Size Guide" },
    ],
  },
  {
    heading: "Company",
    links: [
      { to: "/about", label: "About Us" },
      { to: "/our-story", label: "Our Story" },
      { to: "/careers", label: "Careers" },
      { to: "/press", label: "Press" },
      { to: "/contact", label: "Contact Us" },
    ],
  },
  {
    heading: "Help",
    links: [
      { to: "/faq", label: "Help & Support" },
      { to: "/shipping", label: "Shipping Policy" },
      { to: "/returns", label: "Returns" },
      { to: "/refund-policy", label: "Refund & Cancellation" },
      { to: "/policies", label: "Policies" },
    ],
  },
  {
    heading: "Legal",
    links: [
      { to: "/privacy-policy", label: "Privacy Policy" },
      { to: "/terms", label: "Terms of Service" },
      { to: "/cookie-policy", label: "Cookie Policy" },
      { to: "/admin", label: "Admin Dashboard" },
    ],
  },
];

export function SiteFooter() {
  return (
    <footer className="mt-16 border-t bg-muted/40">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
        {groups.map((group) => (
          <nav key={group.heading} aria-label={group.heading}>
            <h2 className="mb-3 font-semibold text-sm">{group.heading}</h2>
            <ul className="space-y-1 text-sm">
              {group.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="footer-link">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <p className="border-t py-4 text-center text-muted-foreground text-xs">
        © {new Date().getFullYear()} LayerKart · 3D printed in India since 2020
      </p>
    </footer>
  );
}
