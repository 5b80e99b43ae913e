# tests/lib: the shared headers are not in HDRS; rebuild what uses them.
tests/lib/profil_test: tests/lib/h_support.h tests/lib/h_burn.h
tests/lib/monitor_test: tests/lib/h_support.h tests/lib/h_burn.h \
	tests/lib/h_monread.h
tests/lib/h_monitor: tests/lib/h_burn.h
tests/lib/t_mondump: tests/lib/h_monread.h
