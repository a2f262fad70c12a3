CREATE TABLE `payment_settings` (
	`company_id` integer PRIMARY KEY NOT NULL,
	`rule` text DEFAULT 'none' NOT NULL,
	`deposit_pence` integer,
	`deposit_percent` integer,
	`hold` integer DEFAULT 0 NOT NULL,
	`provider` text,
	`account_id` text,
	`charges_enabled` integer DEFAULT 0 NOT NULL,
	`details_submitted` integer DEFAULT 0 NOT NULL,
	`disabled_reason` text,
	`disconnected` integer DEFAULT 0 NOT NULL,
	`account_synced_at` integer,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_settings_account` ON `payment_settings` (`account_id`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`booking_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`provider` text NOT NULL,
	`account_id` text NOT NULL,
	`kind` text NOT NULL,
	`amount_pence` integer NOT NULL,
	`lines` text NOT NULL,
	`status` text DEFAULT 'awaiting' NOT NULL,
	`refunded_pence` integer DEFAULT 0 NOT NULL,
	`checkout_session_id` text NOT NULL,
	`checkout_url` text NOT NULL,
	`checkout_expires_at` text NOT NULL,
	`return_seal` text,
	`payment_intent_id` text,
	`paid_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_booking` ON `payments` (`booking_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `payments_checkout` ON `payments` (`checkout_session_id`);--> statement-breakpoint
CREATE INDEX `payments_status_expires` ON `payments` (`status`,`checkout_expires_at`);--> statement-breakpoint
CREATE TABLE `payment_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`account_id` text,
	`received_at` text NOT NULL
);
