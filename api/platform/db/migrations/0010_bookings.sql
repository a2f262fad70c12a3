CREATE TABLE `bookings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`quote_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`status` text DEFAULT 'requested' NOT NULL,
	`customer_name` text NOT NULL,
	`customer_phone` text NOT NULL,
	`registration` text NOT NULL,
	`note` text,
	`pickup_lat` real,
	`pickup_lng` real,
	`price_pence` integer NOT NULL,
	`job_token_hash` text NOT NULL,
	`driver_token_hash` text NOT NULL,
	`driver_salt` text NOT NULL,
	`respond_by` text NOT NULL,
	`eta_minutes` integer,
	`eta_at` text,
	`eta_from_position` integer DEFAULT 0 NOT NULL,
	`driver_name` text,
	`decline_reason` text,
	`driver_lat` real,
	`driver_lng` real,
	`driver_position_at` text,
	`accepted_at` text,
	`finished_at` text,
	`status_changed_at` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`quote_id`) REFERENCES `quotes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bookings_quote` ON `bookings` (`quote_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `bookings_job_token` ON `bookings` (`job_token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `bookings_driver_token` ON `bookings` (`driver_token_hash`);--> statement-breakpoint
CREATE INDEX `bookings_company_created` ON `bookings` (`company_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `bookings_status_respond_by` ON `bookings` (`status`,`respond_by`);--> statement-breakpoint
ALTER TABLE `lead_events` ADD `booking_status` text;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `channel` text DEFAULT 'email' NOT NULL;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `booking_id` integer REFERENCES `bookings`(`id`) ON DELETE cascade;--> statement-breakpoint
CREATE INDEX `mail_outbox_booking` ON `mail_outbox` (`booking_id`);--> statement-breakpoint
ALTER TABLE `companies` ADD `offer_booking` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `companies` ADD `offer_whatsapp` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `companies` ADD `offer_call` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `companies` ADD `booking_response_minutes` integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE `companies` ADD `booking_sms_number` text;
