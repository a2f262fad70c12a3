-- Starter problem charges are spelt in British English: "Flat Tire" becomes "Flat Tyre" where the
-- company has no "Flat Tyre" of its own already (a name is unique within the list). Quotes keep
-- their stored lines; a request for the old form value 'flat-tire' still finds the charge.
UPDATE `surcharges` SET `problem_type` = 'Flat Tyre'
WHERE `problem_type` = 'Flat Tire'
  AND NOT EXISTS (
    SELECT 1 FROM `surcharges` AS `other`
    WHERE `other`.`company_id` = `surcharges`.`company_id`
      AND lower(trim(`other`.`problem_type`)) IN ('flat tyre', 'flat-tyre')
  );
