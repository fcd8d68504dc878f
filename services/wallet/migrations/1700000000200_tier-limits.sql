-- Up Migration
-- Intent: per-user limits as configuration (the spec leaves their values unshown). One row per
-- tier, transaction type and currency; the operator changes rows with `set-limit` without a
-- redeploy. Amounts are minor units and compare against the transaction amount (the fee is not
-- counted); usage is the user's postings of the same type and currency across all partners within
-- calendar UTC windows (Africa/Monrovia is UTC+0 without daylight saving time).
--
-- A tier without any row answers PKC_4011 (limits not configured); a tier with rows but none for the
-- type and currency answers PKC_4012. Every limit is positive. A shorter window larger than a longer
-- one (daily above weekly, say) is allowed, since it is harmless (the longer window then binds
-- first); `set-limit` warns about it instead of refusing.
CREATE TABLE tier_limits (
  tier text NOT NULL CHECK (tier IN ('Basic', 'Silver', 'Gold', 'Platinum')),
  transaction_type text NOT NULL CHECK (transaction_type IN ('collection', 'disbursement')),
  currency text NOT NULL CHECK (currency IN ('LRD', 'USD')),
  per_transaction_max_minor bigint NOT NULL CHECK (per_transaction_max_minor > 0),
  daily_max_minor bigint NOT NULL CHECK (daily_max_minor > 0),
  weekly_max_minor bigint NOT NULL CHECK (weekly_max_minor > 0),
  monthly_max_minor bigint NOT NULL CHECK (monthly_max_minor > 0),
  yearly_max_minor bigint NOT NULL CHECK (yearly_max_minor > 0),
  per_hour_count_max integer NOT NULL CHECK (per_hour_count_max > 0),
  per_day_count_max integer NOT NULL CHECK (per_day_count_max > 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tier, transaction_type, currency)
);

-- Seeded defaults, the same for collections and disbursements. They are set in USD and converted to
-- LRD at 185 LRD per USD, the rate implied by the spec's maximum per transaction (10,000 USD or
-- 1,850,000 LRD); Platinum's per-transaction maximum equals that API maximum.
--
--   tier      per transaction   daily    weekly   monthly   yearly      per hour  per day (counts)
--   Basic            100          200       500     1,000      5,000        5        10
--   Silver           500        1,000     3,000     8,000     50,000       10        25
--   Gold           2,500        5,000    15,000    40,000    250,000       20        50
--   Platinum      10,000       20,000    60,000   150,000  1,000,000       30       100
INSERT INTO tier_limits (tier, transaction_type, currency, per_transaction_max_minor, daily_max_minor, weekly_max_minor,
                         monthly_max_minor, yearly_max_minor, per_hour_count_max, per_day_count_max)
SELECT defaults.tier, types.transaction_type, rates.currency,
       defaults.per_transaction_usd * rates.minor_per_usd, defaults.daily_usd * rates.minor_per_usd,
       defaults.weekly_usd * rates.minor_per_usd, defaults.monthly_usd * rates.minor_per_usd,
       defaults.yearly_usd * rates.minor_per_usd, defaults.per_hour_count, defaults.per_day_count
  FROM (VALUES
          ('Basic', 100::bigint, 200::bigint, 500::bigint, 1000::bigint, 5000::bigint, 5, 10),
          ('Silver', 500, 1000, 3000, 8000, 50000, 10, 25),
          ('Gold', 2500, 5000, 15000, 40000, 250000, 20, 50),
          ('Platinum', 10000, 20000, 60000, 150000, 1000000, 30, 100)
       ) AS defaults (tier, per_transaction_usd, daily_usd, weekly_usd, monthly_usd, yearly_usd, per_hour_count, per_day_count)
 CROSS JOIN (VALUES ('collection'), ('disbursement')) AS types (transaction_type)
 CROSS JOIN (VALUES ('USD', 100::bigint), ('LRD', 18500::bigint)) AS rates (currency, minor_per_usd);

-- Down Migration
DROP TABLE tier_limits;
