/* Polled driver for a 16550-compatible UART (COM1 at 0x3F8 on a PC). */
#ifndef HV_UART16550_H
#define HV_UART16550_H

#include <stdbool.h>
#include <stdint.h>

#define COM1_BASE 0x3f8

/* Is a UART there? Its scratch register must keep 0x55 and 0xAA (a port
 * nothing decodes reads 0xFF). Real boards without a COM1 header. */
bool uart_present(uint16_t base);
void uart_init(uint16_t base, uint32_t baud);
void uart_putc(uint16_t base, char c);
/* Without waiting: may the transmit FIFO take UART_TX_FIFO bytes now (LSR
 * THRE: the FIFO is empty)? Then uart_tx_byte puts one in. */
#define UART_TX_FIFO 16
bool uart_tx_empty(uint16_t base);
void uart_tx_byte(uint16_t base, char c);
/* Returns true and stores a byte when one is waiting; never blocks. */
bool uart_getc(uint16_t base, uint8_t *out);

#endif
