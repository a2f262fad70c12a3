// The subscription calls of docs/product.md §7 as the screens use them, typed from the contract.
import { call, pathOf, portalApi, type Success } from '#shared/api-client';

export const SUBSCRIPTION_DETAILS_KEY = [pathOf(portalApi['subscription-details'])] as const;
export const BILLING_CONFIG_KEY = [pathOf(portalApi.billing.config)] as const;

/** The plan as the server describes it (its `productName` too, which a hand-written copy once missed). */
export type BillingConfig = Success<typeof portalApi.billing.config.$get>;

export const fetchSubscriptionDetails = () => call(portalApi['subscription-details'].$get);
export const fetchBillingConfig = () => call(portalApi.billing.config.$get);

export interface CheckoutStart {
  email?: string;
  name?: string;
  companyName?: string;
  prefilled_email?: string;
}

/** Opens a checkout and sends the browser there. */
export async function startCheckout(body: CheckoutStart): Promise<void> {
  const { url } = await call(portalApi['create-checkout-session'].$post, { json: body });
  window.location.assign(url);
}

export const reactivateSubscription = () => call(portalApi['reactivate-subscription'].$post);

/**
 * Opens the billing portal in a new tab. The tab is opened at once, inside the click, because
 * browsers block a window opened after waiting for the server; it is pointed at the portal
 * when the URL arrives, and closed again if it does not.
 */
export async function openBillingPortal(): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const { url } = await call(portalApi['customer-portal'].$post);
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
