// The subscription calls of docs/product.md §7 as the screens use them.
import { apiRequest } from '../../../../shared/api-client';
import type { SubscriptionDetails } from '../../../../shared/types';

export const SUBSCRIPTION_DETAILS_KEY = ['/api/subscription-details'] as const;
export const BILLING_CONFIG_KEY = ['/api/billing/config'] as const;

export interface BillingConfig {
  mode: 'local' | 'stripe';
  product: string;
  priceGbp: number;
  currency: string;
  interval: string;
  trialDays: number;
}

export const fetchSubscriptionDetails = () => apiRequest<SubscriptionDetails>('/api/subscription-details');
export const fetchBillingConfig = () => apiRequest<BillingConfig>('/api/billing/config');

export interface CheckoutStart {
  email?: string;
  name?: string;
  companyName?: string;
  prefilled_email?: string;
}

/** Opens a checkout and sends the browser there. */
export async function startCheckout(body: CheckoutStart): Promise<void> {
  const { url } = await apiRequest<{ url: string }>('/api/create-checkout-session', { method: 'POST', body });
  window.location.assign(url);
}

export const reactivateSubscription = () => apiRequest<unknown>('/api/reactivate-subscription', { method: 'POST' });

/**
 * Opens the billing portal in a new tab. The tab is opened at once, inside the click, because
 * browsers block a window opened after waiting for the server; it is pointed at the portal
 * when the URL arrives, and closed again if it does not.
 */
export async function openBillingPortal(): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const { url } = await apiRequest<{ url: string }>('/api/customer-portal', { method: 'POST' });
    if (!tab) {
      window.location.assign(url);
      return;
    }
    // The portal must not be able to script this page through window.opener.
    tab.opener = null;
    tab.location.href = url;
  } catch (error) {
    tab?.close();
    throw error;
  }
}
