// The marketing page that sells the service to recovery operators (docs/product.md §1, §2 Landing page).
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { ArrowRight, Calculator, Check, Clock, Link2, Mail, MessageCircle, Palette, ShieldCheck, SlidersHorizontal, Smartphone, Zap } from 'lucide-react';
import { COLOUR_PRESETS, PLAN_PRICE_PENCE, PRODUCT_NAME, SUPPORT_REPLY_HOURS, TRIAL_DAYS } from '#shared/constants';
import { SUPPORT_EMAIL } from '../lib/support-email';
import { formatPence } from '#shared/money';
import { readableTextOn } from '#shared/contrast';
import { BrandMark } from '../components/BrandMark';
import { Button } from '../components/ui/button';
import { Spinner } from '../components/ui/spinner';
import { cn } from '../lib/cn';

// The live demo is the heaviest part of the page; the hero paints without waiting for it.
const QuoteForm = lazy(() => import('../components/QuoteFormEmbed').then((m) => ({ default: m.QuoteForm })));

const SIGN_IN = '/auth-page?mode=signin';
const SIGN_UP = '/auth-page?mode=signup';
const PLAN_PRICE = formatPence(PLAN_PRICE_PENCE).replace('.00', '');
const CONTACT_HREF = `mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent(`${PRODUCT_NAME} enquiry`)}`;

const PLAN_FEATURES = [
  'Unlimited quote generation',
  'Full branding customisation',
  'Custom URL slug',
  'Vehicle type configuration',
  'Problem-specific pricing',
  'WhatsApp & phone integration',
  'Mobile-responsive design',
  'Real-time distance calculation',
  'Email support',
];

function features(host: string) {
  return [
    {
      icon: Zap,
      title: 'Instant Quote Generation',
      text: 'Customers enter two postcodes and their vehicle details and see a full price in seconds, day or night.',
    },
    {
      icon: Palette,
      title: 'Complete Branding Control',
      text: 'Your logo, your colours, your wording. Customers see your business, not ours.',
    },
    {
      icon: Link2,
      title: 'Custom URL Slugs',
      text: `Share a memorable link such as ${host}/company/yourcompany on your van, website and socials.`,
    },
    {
      icon: SlidersHorizontal,
      title: 'Flexible Pricing Rules',
      text: 'Call-out fees, mileage, labour, after-hours rates and charges per vehicle, gearbox and problem.',
    },
    {
      icon: MessageCircle,
      title: 'Direct Customer Contact',
      text: 'Customers message you on WhatsApp with the full job details prefilled, or call you in one tap.',
    },
  ];
}

function Header() {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link to="/" aria-label={`${PRODUCT_NAME} home`}>
          <BrandMark compact />
        </Link>
        <nav aria-label="Account" className="flex items-center gap-2">
          <Button variant="ghost" asChild>
            <Link to={SIGN_IN}>Sign In</Link>
          </Button>
          <Button asChild>
            <Link to={SIGN_UP}>Get Started</Link>
          </Button>
        </nav>
      </div>
    </header>
  );
}

function Hero() {
  return (
    <section className="relative overflow-hidden bg-gradient-to-b from-brand-800 to-brand-700 text-white">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-16 sm:px-6 md:py-24 lg:grid-cols-[1.2fr_1fr] lg:items-center">
        <div>
          <p className="mb-4 inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm font-medium">
            <ShieldCheck className="size-4" aria-hidden="true" />
            Built for UK vehicle recovery operators
          </p>
          <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl">Instant recovery quotes, under your own brand</h1>
          <p className="mt-5 max-w-xl text-lg text-blue-100">
            Give every stranded driver a clear price in seconds. {PRODUCT_NAME} turns your rates into a branded quote page that sends customers straight to your
            WhatsApp or phone.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Button size="lg" variant="light" asChild>
              <Link to={SIGN_UP}>
                Start your {TRIAL_DAYS}-day free trial <ArrowRight aria-hidden="true" />
              </Link>
            </Button>
            <Button size="lg" variant="inverse" asChild>
              <a href={CONTACT_HREF}>
                <Mail aria-hidden="true" /> Contact us
              </a>
            </Button>
          </div>
          <p className="mt-3 text-sm text-blue-100">
            Questions? Email {SUPPORT_EMAIL}: we reply within {SUPPORT_REPLY_HOURS} hours.
          </p>
        </div>
        <ul className="grid gap-3 sm:grid-cols-3 lg:grid-cols-1" aria-label="Highlights">
          {[
            { icon: Clock, title: '5-minute setup', text: 'Add your rates and logo, share your link.' },
            { icon: Calculator, title: 'Accurate prices', text: 'Distance, labour and extras worked out for you.' },
            { icon: Smartphone, title: 'Made for phones', text: 'Where your customers are when they break down.' },
          ].map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex gap-3 rounded-xl bg-white/10 p-4">
              <Icon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
              <div>
                <p className="font-semibold">{title}</p>
                <p className="text-sm text-blue-100">{text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function LiveDemo() {
  return (
    <section aria-labelledby="demo-heading" className="bg-slate-100 py-16 md:py-20">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <h2 id="demo-heading" className="text-3xl font-bold tracking-tight">
            See It In Action
          </h2>
          <p className="mt-3 text-slate-700">
            This is the quote screen your customers use. Try it: enter two UK postcodes and get a real price from sample rates.
          </p>
        </div>
        <div className="mx-auto mt-10 max-w-3xl overflow-hidden rounded-2xl shadow-xl ring-1 ring-slate-200">
          <Suspense
            fallback={
              <div className="grid min-h-64 place-items-center bg-white">
                <Spinner label="Loading the live demo" />
              </div>
            }
          >
            <QuoteForm demo />
          </Suspense>
        </div>
      </div>
    </section>
  );
}

function CustomisationShowcase() {
  const [selected, setSelected] = useState(0);
  const theme = COLOUR_PRESETS[selected];
  return (
    <section aria-labelledby="custom-heading" className="py-16 md:py-20">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 sm:px-6 lg:grid-cols-2 lg:items-center">
        <div>
          <h2 id="custom-heading" className="text-3xl font-bold tracking-tight">
            Make it unmistakably yours
          </h2>
          <p className="mt-3 text-slate-700">
            Pick a colour theme in one click, or set every colour yourself. Upload your logo, write your own description and choose which details customers see.
          </p>
          {/* biome-ignore lint/a11y/useSemanticElements: a fieldset's default min-inline-size (min-content) breaks this flex/grid layout on a phone; role=group is the same to assistive technology */}
          <div role="group" aria-label="Colour themes" className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3">
            {COLOUR_PRESETS.map((preset, index) => (
              <button
                key={preset.name}
                type="button"
                aria-pressed={index === selected}
                onClick={() => setSelected(index)}
                className={cn(
                  'flex items-center gap-2 rounded-lg border bg-white p-3 text-left text-sm font-medium',
                  index === selected ? 'border-brand-600 ring-2 ring-brand-600' : 'border-slate-200 hover:border-slate-400',
                )}
              >
                <span className="flex" aria-hidden="true">
                  <span className="size-5 rounded-full border border-white" style={{ background: preset.primaryColour }} />
                  <span className="-ml-1.5 size-5 rounded-full border border-white" style={{ background: preset.secondaryColour }} />
                  <span className="-ml-1.5 size-5 rounded-full border border-white" style={{ background: preset.accentColour }} />
                </span>
                {preset.name}
              </button>
            ))}
          </div>
        </div>
        <figure
          aria-label={`Example quote page in ${theme.name}`}
          className="overflow-hidden rounded-2xl shadow-xl ring-1 ring-slate-200"
          style={{ background: theme.backgroundColour, color: theme.textColour }}
        >
          <div className="flex items-center gap-3 p-5" style={{ background: theme.secondaryColour, color: readableTextOn(theme.secondaryColour) }}>
            <span className="grid size-10 place-items-center rounded-lg bg-white/30 font-bold" aria-hidden="true">
              AR
            </span>
            <div>
              <p className="font-bold">Acme Recovery</p>
              <p className="text-sm opacity-90">Fast, friendly 24/7 recovery across the North West</p>
            </div>
          </div>
          <div className="grid gap-3 p-5">
            {/* Wording of its own: the live demo above already shows the real screen's texts. */}
            <p className="font-semibold">Your instant recovery quote</p>
            <div className="grid grid-cols-2 gap-3 text-sm">
              <span className="rounded-md border border-slate-300 bg-white p-2 text-slate-600">M1 1AA</span>
              <span className="rounded-md border border-slate-300 bg-white p-2 text-slate-600">L1 8JQ</span>
            </div>
            <span
              className="rounded-md p-2.5 text-center text-sm font-semibold"
              style={{ background: theme.primaryColour, color: readableTextOn(theme.primaryColour) }}
            >
              Get my price
            </span>
            <span className="text-sm font-medium" style={{ color: theme.textColour }}>
              Your price <strong className="text-lg">£186.25</strong>
            </span>
          </div>
        </figure>
      </div>
    </section>
  );
}

function Features() {
  const host = typeof window === 'undefined' ? 'yourdomain' : window.location.host;
  return (
    <section aria-labelledby="features-heading" className="bg-white py-16 md:py-20">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <h2 id="features-heading" className="text-center text-3xl font-bold tracking-tight">
          Everything you need to quote and win jobs
        </h2>
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {features(host).map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-xl border border-slate-200 bg-slate-50 p-6">
              <span className="grid size-10 place-items-center rounded-lg bg-brand-600 text-white">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <h3 className="mt-4 font-semibold">{title}</h3>
              <p className="mt-2 text-sm text-slate-700">{text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function Pricing() {
  return (
    <section aria-labelledby="pricing-heading" className="py-16 md:py-20">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <h2 id="pricing-heading" className="text-center text-3xl font-bold tracking-tight">
          Simple, honest pricing
        </h2>
        <p className="mt-3 text-center text-slate-700">One plan with everything included. No long-term contracts.</p>
        <div className="mx-auto mt-10 max-w-md rounded-2xl border-2 border-brand-600 bg-white p-8 shadow-lg">
          <h3 className="text-xl font-bold">Professional Plan</h3>
          <p className="mt-4 flex items-baseline gap-1">
            <span className="text-5xl font-extrabold tracking-tight">{PLAN_PRICE}</span>
            <span className="text-slate-700">/month</span>
          </p>
          <p className="mt-2 font-medium text-green-800">{TRIAL_DAYS}-day free trial · Cancel anytime</p>
          <ul className="mt-6 grid gap-3" aria-label="Included in the Professional Plan">
            {PLAN_FEATURES.map((feature) => (
              <li key={feature} className="flex items-start gap-2">
                <Check className="mt-0.5 size-5 shrink-0 text-green-700" aria-hidden="true" />
                {feature}
              </li>
            ))}
          </ul>
          <Button size="lg" className="mt-8 w-full" asChild>
            <Link to={SIGN_UP}>Start Free Trial</Link>
          </Button>
          <p className="mt-3 text-center text-sm text-slate-600">No long-term contracts · 5-minute setup</p>
        </div>
      </div>
    </section>
  );
}

function FinalCallToAction() {
  return (
    <section aria-labelledby="cta-heading" className="bg-brand-800 py-16 text-white">
      <div className="mx-auto max-w-3xl px-4 text-center sm:px-6">
        <h2 id="cta-heading" className="text-3xl font-bold tracking-tight">
          Ready to quote your next job in seconds?
        </h2>
        <p className="mt-3 text-blue-100">
          Set up your branded quote page today. {TRIAL_DAYS} days free, then {PLAN_PRICE}/month.
        </p>
        {/* Not 'Get Started' / 'Sign In' again: those name the header's links, once each. */}
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Button size="lg" variant="light" asChild>
            <Link to={SIGN_UP}>
              Create your quote page <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        </div>
      </div>
    </section>
  );
}

function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="bg-slate-950 py-10 text-slate-300">
      <div className="mx-auto grid max-w-6xl gap-6 px-4 text-sm sm:px-6 md:grid-cols-2">
        <div>
          <BrandMark inverted />
          <p className="mt-3 max-w-sm">Instant, branded quotes for UK vehicle recovery and towing businesses.</p>
        </div>
        <div className="md:text-right">
          <p>
            Support:{' '}
            <a className="font-medium text-white underline" href={`mailto:${SUPPORT_EMAIL}`}>
              {SUPPORT_EMAIL}
            </a>
          </p>
          <p className="mt-2">
            © {year} {PRODUCT_NAME}. All rights reserved.
          </p>
          <p className="mt-2 text-slate-400">
            Contains OS data © Crown copyright and database right 2025. Contains Royal Mail data © Royal Mail copyright and database right 2025. Source: Office
            for National Statistics licensed under the Open Government Licence v3.0.
          </p>
        </div>
      </div>
    </footer>
  );
}

export default function LandingPage() {
  return (
    <>
      <title>{`${PRODUCT_NAME} - Instant quotes for UK vehicle recovery`}</title>
      <Header />
      <main>
        <Hero />
        <LiveDemo />
        <CustomisationShowcase />
        <Features />
        <Pricing />
        <FinalCallToAction />
      </main>
      <Footer />
    </>
  );
}
