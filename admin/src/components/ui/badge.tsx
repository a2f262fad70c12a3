import type { HTMLAttributes } from 'react';
import { parseSubscriptionStatus } from '#shared/subscription';
import { cn } from '../../lib/cn';

const TONES = {
  neutral: 'bg-slate-100 text-slate-800 border-slate-200',
  brand: 'bg-brand-50 text-brand-800 border-brand-100',
  success: 'bg-green-50 text-green-800 border-green-200',
  warning: 'bg-amber-50 text-amber-900 border-amber-200',
  danger: 'bg-red-50 text-red-800 border-red-200',
} as const;

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  tone?: keyof typeof TONES;
}

export function Badge({ tone = 'neutral', className, ...props }: BadgeProps) {
  return <span className={cn('inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold', TONES[tone], className)} {...props} />;
}

/** Badge tone for a subscription status (docs/product.md §4 table); an unknown one is neutral. */
export function statusTone(raw: string | null | undefined): keyof typeof TONES {
  const status = parseSubscriptionStatus(raw);
  switch (status) {
    case 'active':
      return 'success';
    case 'trialing':
      return 'brand';
    case 'cancelled':
    case 'past_due':
      return 'warning';
    case 'inactive':
    case undefined:
      return 'neutral';
    default:
      return status satisfies never;
  }
}
