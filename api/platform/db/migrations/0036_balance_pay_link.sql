-- A completed job's balance paid by card through a pay link (docs/product.md §22): the link's
-- token is made again from a random salt kept with the booking (so the driver's QR code can be
-- shown again) and looked up by its hash; each checkout opened from the link on the operator's
-- own payment account is a row of balance_checkouts.
ALTER TABLE `bookings` ADD `pay_salt` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `pay_token_hash` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `pay_link_texted_at` text;--> statement-breakpoint
CREATE UNIQUE INDEX `bookings_pay_token` ON `bookings` (`pay_token_hash`);--> statement-breakpoint
CREATE TABLE `balance_checkouts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`booking_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`provider` text NOT NULL,
	`account_id` text NOT NULL,
	`amount_pence` integer NOT NULL,
	`status` text DEFAULT 'awaiting' NOT NULL,
	`checkout_session_id` text NOT NULL,
	`checkout_url` text NOT NULL,
	`checkout_expires_at` text NOT NULL,
	`return_seal` text,
	`payment_intent_id` text,
	`paid_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `balance_checkouts_session` ON `balance_checkouts` (`checkout_session_id`);--> statement-breakpoint
CREATE INDEX `balance_checkouts_booking` ON `balance_checkouts` (`booking_id`,`status`);
