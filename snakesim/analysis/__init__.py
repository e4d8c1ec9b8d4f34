"""What snakesim computes from played games: statistics, comparisons, sweeps, exact answers,
balancing and tuning. The engine that plays the games lives in :mod:`snakesim.core`."""
