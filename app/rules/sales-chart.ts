/* Pure helpers of the admin dashboard's sales chart (app/components/admin/sales-chart.tsx). */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2026-11-22" → "22 Nov" (a calendar day: no time zone involved). */
export function shortDay(key: string): string {
  const [, m, d] = key.split("-").map(Number);
  return `${d} ${MONTHS[m - 1]}`;
}

/** "2026-11-22" → "Sun, 22 Nov 2026". */
export function longDay(key: string): string {
  const [y, m, d] = key.split("-").map(Number);
  const weekday = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][
    new Date(Date.UTC(y, m - 1, d)).getUTCDay()
  ];
  return `${weekday}, ${d} ${MONTHS[m - 1]} ${y}`;
}

/**
 * A round axis maximum at or above `max`, split in 4 round steps (1, 2, 2.5 or 5 times a power of
 * ten; whole steps for counts).
 */
export function niceCeiling(max: number, integer: boolean): number {
  if (!(max > 0)) return integer ? 4 : 100;
  const wanted = max / 4;
  const power = 10 ** Math.floor(Math.log10(wanted));
  const steps = integer ? [1, 2, 5, 10] : [1, 2, 2.5, 5, 10];
  let step = 10 * power;
  for (const s of steps) {
    if (s * power >= wanted) {
      step = s * power;
      break;
    }
  }
  if (integer) step = Math.max(1, Math.ceil(step));
  return step * 4;
}
