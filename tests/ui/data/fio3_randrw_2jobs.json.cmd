fio --name=randrw --directory=/tmp/fiofx --rw=randrw --rwmixread=70 --bs=4k --size=8M --numjobs=2 --iodepth=4 --ioengine=libaio --direct=1 --runtime=1 --time_based --output-format=json 
# tool: fio-3.33
