ALTER TABLE `pricing_rates` ADD `bank_holiday_nation` text DEFAULT 'england-and-wales' NOT NULL;--> statement-breakpoint
ALTER TABLE `pricing_rates` ADD `bank_holiday_fee_pence` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `pricing_rates` ADD `en_route_rate_pence` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `pricing_rates` ADD `free_miles_hundredths` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `pricing_rates` ADD `minimum_charge_pence` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `pricing_rates` ADD `maximum_radius_hundredths` integer;--> statement-breakpoint
ALTER TABLE `pricing_rates` ADD `vat_registered` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `pricing_rates` ADD `prices_include_vat` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `pricing_rates` ADD `quote_validity_hours` integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE `quotes` ADD `vat_pence` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `quotes` ADD `vat_rate_percent` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `quotes` ADD `valid_until` text;--> statement-breakpoint
ALTER TABLE `quotes` ADD `lines` text;