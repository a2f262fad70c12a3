CREATE TABLE `billing_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `checkout_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`processed_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `companies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`logo` text,
	`primary_colour` text DEFAULT '#1976D2' NOT NULL,
	`secondary_colour` text DEFAULT '#FFA726' NOT NULL,
	`accent_colour` text DEFAULT '#FF5722' NOT NULL,
	`background_colour` text DEFAULT '#FAFAFA' NOT NULL,
	`text_colour` text DEFAULT '#0F172A' NOT NULL,
	`phone` text,
	`whatsapp` text,
	`email` text,
	`preferred_contact` text DEFAULT 'whatsapp' NOT NULL,
	`custom_domain` text,
	`custom_slug` text,
	`show_price_breakdown` integer DEFAULT true NOT NULL,
	`company_description` text,
	`base_postcode` text,
	`service_radius_hundredths` integer DEFAULT 2500 NOT NULL,
	`extra_radius_fee_pence` integer DEFAULT 1500 NOT NULL,
	`show_service_area` integer DEFAULT true NOT NULL,
	`show_features` integer DEFAULT true NOT NULL,
	`enable_price_rounding` integer DEFAULT false NOT NULL,
	`price_rounding_multiple` integer DEFAULT 5 NOT NULL,
	`show_price_disclaimer` integer DEFAULT true NOT NULL,
	`passenger_limit` integer DEFAULT 5 NOT NULL,
	`price_per_passenger_pence` integer DEFAULT 500 NOT NULL,
	`feature1_title` text DEFAULT '24/7 Availability' NOT NULL,
	`feature1_description` text DEFAULT 'Round-the-clock recovery whenever you break down.' NOT NULL,
	`feature1_icon` text DEFAULT 'Clock' NOT NULL,
	`feature2_title` text DEFAULT 'Transparent Pricing' NOT NULL,
	`feature2_description` text DEFAULT 'An itemised price before you book: no surprises.' NOT NULL,
	`feature2_icon` text DEFAULT 'Calculator' NOT NULL,
	`feature3_title` text DEFAULT 'Professional Drivers' NOT NULL,
	`feature3_description` text DEFAULT 'Trained, insured recovery drivers you can trust.' NOT NULL,
	`feature3_icon` text DEFAULT 'CheckCircle' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `companies_custom_slug_unique` ON `companies` (`custom_slug`);--> statement-breakpoint
CREATE TABLE `company_logos` (
	`company_id` integer PRIMARY KEY NOT NULL,
	`content_type` text NOT NULL,
	`bytes` blob NOT NULL,
	`hash` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `distance_cache` (
	`from_postcode` text NOT NULL,
	`to_postcode` text NOT NULL,
	`miles` real NOT NULL,
	`provider` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `distance_cache_pair` ON `distance_cache` (`from_postcode`,`to_postcode`,`provider`);--> statement-breakpoint
CREATE TABLE `gearbox_types` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`name` text NOT NULL,
	`base_price_pence` integer DEFAULT 0 NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `gearbox_types_company` ON `gearbox_types` (`company_id`);--> statement-breakpoint
CREATE TABLE `passenger_charges` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`passenger_count` integer NOT NULL,
	`base_price_pence` integer DEFAULT 0 NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `passenger_charges_company` ON `passenger_charges` (`company_id`);--> statement-breakpoint
CREATE TABLE `pricing_rates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`call_out_fee_pence` integer DEFAULT 5000 NOT NULL,
	`labour_rate_pence` integer DEFAULT 4500 NOT NULL,
	`mile_rate_pence` integer DEFAULT 250 NOT NULL,
	`labour_time_hundredths` integer DEFAULT 100 NOT NULL,
	`after_hours_enabled` integer DEFAULT false NOT NULL,
	`after_hours_fee_pence` integer DEFAULT 5000 NOT NULL,
	`after_hours_start` text DEFAULT '18:00' NOT NULL,
	`after_hours_end` text DEFAULT '08:00' NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pricing_rates_company_id_unique` ON `pricing_rates` (`company_id`);--> statement-breakpoint
CREATE TABLE `problem_types` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`name` text NOT NULL,
	`base_price_pence` integer DEFAULT 0 NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `problem_types_company` ON `problem_types` (`company_id`);--> statement-breakpoint
CREATE TABLE `quotes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`company_id` integer NOT NULL,
	`pickup_postcode` text NOT NULL,
	`destination_postcode` text NOT NULL,
	`vehicle_type` text NOT NULL,
	`gearbox_type` text,
	`rolling_status` text,
	`passenger_count` integer DEFAULT 0 NOT NULL,
	`problem_type` text NOT NULL,
	`urgency` text NOT NULL,
	`preferred_date` text,
	`preferred_time` text,
	`distance` real NOT NULL,
	`call_out_fee_pence` integer NOT NULL,
	`distance_fee_pence` integer NOT NULL,
	`labour_fee_pence` integer NOT NULL,
	`extra_fees_pence` integer DEFAULT 0 NOT NULL,
	`total_price_pence` integer NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `quotes_public_id_unique` ON `quotes` (`public_id`);--> statement-breakpoint
CREATE INDEX `quotes_company_created` ON `quotes` (`company_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `rolling_status_types` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`name` text NOT NULL,
	`base_price_pence` integer DEFAULT 0 NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `rolling_status_types_company` ON `rolling_status_types` (`company_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`sid` text PRIMARY KEY NOT NULL,
	`sess` text NOT NULL,
	`expire` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `surcharges` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`problem_type` text NOT NULL,
	`amount_pence` integer DEFAULT 0 NOT NULL,
	`description` text,
	`enabled` integer DEFAULT true NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `surcharges_company` ON `surcharges` (`company_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`password` text NOT NULL,
	`name` text NOT NULL,
	`company_id` integer,
	`stripe_customer_id` text,
	`stripe_subscription_id` text,
	`subscription_status` text DEFAULT 'inactive' NOT NULL,
	`trial_ends_at` text,
	`current_period_end` text,
	`cancel_at_period_end` integer DEFAULT false NOT NULL,
	`session_version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (lower("email"));--> statement-breakpoint
CREATE TABLE `vehicle_types` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`name` text NOT NULL,
	`base_price_pence` integer DEFAULT 5000 NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `vehicle_types_company` ON `vehicle_types` (`company_id`);