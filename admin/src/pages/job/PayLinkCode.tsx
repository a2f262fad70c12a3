// A completed job's balance by card (docs/product.md §22): its pay link as a QR code the customer
// scans on the phone or screen in front of them, with the link itself. Shown by the driver's page
// (by link and in My jobs) and the portal's Jobs card, which loads it (and the QR library) only
// when a link is out; its words are pay-link-words.ts's.
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { PAY_LINK_SENT, payLinkHeading } from './pay-link-words';

export default function PayLinkCode({ link, balance }: { link: string; balance: number }) {
  const [image, setImage] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    QRCode.toDataURL(link, { errorCorrectionLevel: 'M', margin: 2, width: 240 })
      .then((url) => current && setImage(url))
      .catch(() => current && setImage(null));
    return () => {
      current = false;
    };
  }, [link]);
  return (
    <div className="mt-4 grid justify-items-center gap-2 text-center">
      <h3 className="text-lg font-semibold">{payLinkHeading(balance)}</h3>
      {image && <img src={image} width={240} height={240} alt="QR code of the pay link" className="rounded-lg border border-slate-300" />}
      <a href={link} className="break-all text-brand-700 underline">
        {link}
      </a>
      <p>{PAY_LINK_SENT}</p>
    </div>
  );
}
