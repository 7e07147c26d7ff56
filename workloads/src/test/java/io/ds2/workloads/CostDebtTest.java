package io.ds2.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CostDebtTest {
  @Test
  void timerSlackIsCreditedSoTheMeanCostStaysExact() {
    CostDebt debt = new CostDebt();
    debt.pay(900_000); // below the threshold: no sleep yet
    debt.slept(1_200_000); // a sleep for it overshot by 0.3 ms
    assertEquals(-300_000, debt.debtNanos());
  }

  @Test
  void aPauseIsTimeLostNotAPrepayment() {
    CostDebt debt = new CostDebt();
    debt.pay(900_000);
    debt.slept(15_000_000_000L); // the VM was paused for 15 s during the sleep
    assertEquals(-CostDebt.MAX_CREDIT_NANOS, debt.debtNanos());
  }
}
